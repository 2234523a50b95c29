/**
 * The URL search params of the Referentials routes, validated by the router (one
 * `validateSearch` per route; pages read them through `getRouteApi`). Light on purpose:
 * they load with the shell.
 */
import { code, text } from '../../app/searchParams.ts';

/** A list view as it lives in the URL (a link reproduces the view). Lists are sorted by code. */
export interface ListSearch {
  /** Text in the code or the name (and city, or serial number). */
  q?: string;
  /** That office and the offices below it. */
  office?: string;
}
export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  return { q: text(raw.q), office: code(raw.office) };
}

/** Values a "new" link carries: `?customer=` (a site's customer), `?site=` (an asset's), `?parent=`. */
export interface NewRecordSearch {
  customer?: string;
  site?: string;
  parent?: string;
}
export function validateNewRecordSearch(raw: Record<string, unknown>): NewRecordSearch {
  return { customer: code(raw.customer), site: code(raw.site), parent: code(raw.parent) };
}
