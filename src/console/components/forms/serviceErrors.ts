/**
 * Service errors in the forms: the error body read out of whatever the client threw, and
 * its codes applied to the form's fields through a feature's own code -> field mapping
 * (`features/<name>/errorFields.ts`). What no field takes goes to the ServiceErrorAlert.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { statusOf } from '../../../client/index.ts';
import { isRecord } from '../../../contract/guards.ts';

export interface ServiceError {
  status?: number;
  errors: { code: string; message: string }[];
  errorReference?: string;
}

export type ServiceErrorItem = ServiceError['errors'][number];

const isErrorItem = (v: unknown): v is ServiceErrorItem =>
  isRecord(v) && typeof v.code === 'string' && typeof v.message === 'string';

/**
 * The error body (`errors[]`, `errorReference`) carried by what was thrown, on itself (an
 * ApiError) or on its `body`; null when it carries no well-formed, non-empty `errors[]`.
 */
export function errorBodyOf(e: unknown): Omit<ServiceError, 'status'> | null {
  if (!isRecord(e)) return null;
  const body = isRecord(e.body) ? e.body : e;
  const errors = body.errors ?? e.errors;
  if (!Array.isArray(errors) || errors.length === 0 || !errors.every(isErrorItem)) return null;
  const ref = body.errorReference ?? e.errorReference;
  return { errors, errorReference: typeof ref === 'string' ? ref : undefined };
}

/** The error as no answer ('network'): what was thrown is not an error body. */
export const networkErrors = (e: unknown): ServiceErrorItem[] => [
  { code: 'network', message: e instanceof Error ? e.message : String(e) },
];

/** Reads the error body out of whatever the client threw. */
export function readServiceError(e: unknown): ServiceError {
  const status = statusOf(e);
  const body = errorBodyOf(e);
  return body ? { status, ...body } : { status, errors: networkErrors(e) };
}

/** The errors in one line, then the errorReference in brackets (a notification's message). */
export const errorSentence = (
  err: ServiceError,
  explain: (e: ServiceErrorItem) => string = (e) => e.message,
): string => `${err.errors.map(explain).join(' ')}${err.errorReference ? ` (${err.errorReference})` : ''}`;

/**
 * Marks the fields the errors belong to and returns the ones tied to no field.
 * `fieldFor` gives one field path (the first such field gets the focus), several paths
 * marked together without focus (a group, e.g. each named custom field and the editor's
 * root), or null. `message` is the translated text of an error.
 */
export function applyServiceErrors<T extends FieldValues>(
  error: ServiceError,
  opts: {
    fieldFor: (err: ServiceErrorItem) => string | readonly string[] | null;
    message: (err: ServiceErrorItem) => string;
    setError: UseFormSetError<T>;
  },
): ServiceError['errors'] {
  const unmapped: ServiceError['errors'] = [];
  let first = true;
  for (const err of error.errors) {
    const field = opts.fieldFor(err);
    if (field === null) {
      unmapped.push(err);
      continue;
    }
    const message = opts.message(err);
    if (typeof field === 'string') {
      opts.setError(field as Path<T>, { type: 'server', message }, { shouldFocus: first });
      first = false;
    } else for (const f of field) opts.setError(f as Path<T>, { type: 'server', message });
  }
  return unmapped;
}

/**
 * What a form does with what a write threw: reads it, marks the fields (applyServiceErrors),
 * and returns what its ServiceErrorAlert shows (the errors no field took, and the
 * errorReference), or null when there is nothing left to show.
 */
export function serviceErrorForForm<T extends FieldValues>(
  thrown: unknown,
  opts: Parameters<typeof applyServiceErrors<T>>[1],
): ServiceError | null {
  const error = readServiceError(thrown);
  const unmapped = applyServiceErrors(error, opts);
  return unmapped.length > 0 || error.errorReference ? { ...error, errors: unmapped } : null;
}
