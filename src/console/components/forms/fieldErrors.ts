/**
 * Reading react-hook-form's errors by path: its `get` answers `any`, so what is found there
 * is checked to be an error with a message before its message is read.
 */
import { type FieldErrors, get } from 'react-hook-form';
import { isRecord } from '../../../contract/guards.ts';

/** Whether `value` is a field error carrying a message (and maybe its `type`). */
export function hasMessage(value: unknown): value is { message: string; type?: unknown } {
  return isRecord(value) && typeof value.message === 'string';
}

/** The message of the error at `path` (`contact.details.0.value`), if there is one. */
export function errorMessageAt(errors: FieldErrors, path: string): string | undefined {
  const error: unknown = get(errors, path);
  return hasMessage(error) ? error.message : undefined;
}
