/**
 * Type guards shared by the service, the client and the console: where a value comes from
 * outside (a query string, storage, a parsed body, a thrown error), these narrow it by a
 * check instead of a cast that only claims its type.
 */

/** Whether `value` is one of `list`'s members (a `const` list of names), narrowed to them. */
export function isOneOf<const T extends string>(list: readonly T[], value: unknown): value is T {
  return list.some((member) => member === value);
}

/** Whether `value` is a non-null object that is not an array: its properties may be read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
