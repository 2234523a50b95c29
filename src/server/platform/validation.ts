import type { z } from 'zod';
import { derivedCode } from '../../contract/errors.ts';
import { ApiError, type ErrorItem } from './errors.ts';

/**
 * Turns zod issues into the spec's codes: a missing required field is
 * `<prefix>.<field>.mandatory` (absent or null), an unknown field `<prefix>.field.unknown`, anything wrong
 * inside `customFields` `<prefix>.custom.field.invalid`, any other constraint
 * `<prefix>.<field>.invalid`; a body that is not an object at all is `<prefix>.invalid.json`.
 */
export function issuesToErrors(prefix: string, issues: readonly z.core.$ZodIssue[]): ErrorItem[] {
  const seen = new Map<string, ErrorItem>();
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string => typeof p === 'string');
    const field = path[path.length - 1];
    const where = issue.path.join('.') || 'body';
    let code: string;
    if (path.includes('customFields')) code = derivedCode.customFieldInvalid(prefix);
    else if (issue.code === 'unrecognized_keys') code = derivedCode.fieldUnknown(prefix);
    else if (!field) code = derivedCode.invalidJson(prefix);
    else if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
      code = derivedCode.mandatory(prefix, field);
    else code = derivedCode.invalid(prefix, field);
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => (where === 'body' ? k : `${where}.${k}`)).join(', ')}`
        : `${where}: ${issue.message}`;
    if (!seen.has(code)) seen.set(code, { code, message });
  }
  return [...seen.values()];
}

/** Parses `input` with `schema` or throws a 400 carrying every mapped code. */
export function validate<S extends z.ZodType>(prefix: string, schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ApiError(400, issuesToErrors(prefix, result.error.issues));
  return result.data;
}
