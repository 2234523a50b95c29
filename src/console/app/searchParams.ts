/**
 * Readers of URL search params, shared by every route's `validateSearch` (features'
 * `search.ts`). The router hands over what it parsed: a string, or a number or boolean for a
 * JSON-looking value (`?wo=123` arrives as 123). Each reader returns the value kept (trimmed,
 * bounded) or undefined, never throws: a wrong value is dropped, not judged. Plain
 * TypeScript (no zod): it loads with the shell.
 */
import { isOneOf } from '../../contract/guards.ts';

export interface TextOptions {
  /** Longest value kept (cut beyond). */
  max?: number;
  /** Also take a number or boolean as its text (`?wo=123`). */
  scalars?: boolean;
}

/** Trimmed, non-blank text. */
export function text(v: unknown, { max = 200, scalars = false }: TextOptions = {}): string | undefined {
  const s = scalars && (typeof v === 'number' || typeof v === 'boolean') ? String(v) : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim().slice(0, max) : undefined;
}

/** A record code as stored: trimmed and uppercased. */
export const code = (v: unknown, options?: TextOptions): string | undefined =>
  text(v, options)?.toUpperCase();

const CODE = /^[A-Za-z0-9._-]{1,60}$/;
/** A code of the allowed letters only (a malformed one is dropped), uppercased. */
export const strictCode = (v: unknown): string | undefined =>
  typeof v === 'string' && CODE.test(v.trim()) ? v.trim().toUpperCase() : undefined;

/** A finite number (from a number or its text). */
export function num(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** A flag present only when true. */
export const flag = (v: unknown): true | undefined =>
  v === true || v === 'true' || v === 1 ? true : undefined;

/** true, false, or undefined (absent or anything else). */
export const bool = (v: unknown): boolean | undefined =>
  v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;

/** One of the listed values. */
export const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  isOneOf(values, v) ? v : undefined;

/** A repeated param: each value read by `each`, deduplicated, at most `max`. */
export function list(v: unknown, each: (x: unknown) => string | undefined, max = 100): string[] | undefined {
  const items = (Array.isArray(v) ? v : v === undefined ? [] : [v])
    .map(each)
    .filter((x): x is string => x !== undefined);
  const unique = [...new Set(items)].slice(0, max);
  return unique.length ? unique : undefined;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar day `YYYY-MM-DD` (2025-02-30 is refused, not moved). */
export function isDay(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DAY.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A uuid (what the palette and the search boxes open by uuid). */
export const isUuid = (v: string) => UUID.test(v.trim());
export const UUID_PATTERN = UUID.source;

/** The params kept, without the keys of dropped values (so a link carries no `?x=`). */
export function defined<S extends object>(search: S): S {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined)) as S;
}
