/**
 * Search params of the routes, typed at the router. Light on purpose (no feature code,
 * so the shell's bundle stays small): each page normalises them further with its own
 * parser (referentials: parseListSearch, catalog: parseItemsSearch).
 */
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export interface ListSearchParams {
  q?: string;
  office?: string;
  sort?: string;
}
export const listSearch = (raw: Record<string, unknown>): ListSearchParams => ({
  q: str(raw.q),
  office: str(raw.office),
  sort: str(raw.sort),
});

/** `?customer=` `?site=` `?parent=`: values a "new" link carries. */
export interface NewRecordSearch {
  customer?: string;
  site?: string;
  parent?: string;
}
export const newRecordSearch = (raw: Record<string, unknown>): NewRecordSearch => ({
  customer: str(raw.customer),
  site: str(raw.site),
  parent: str(raw.parent),
});

export interface ItemsSearchParams {
  q?: string;
  category?: string;
  active?: boolean;
}
export const itemsSearch = (raw: Record<string, unknown>): ItemsSearchParams => ({
  q: str(raw.q),
  category: str(raw.category),
  active:
    raw.active === true || raw.active === 'true'
      ? true
      : raw.active === false || raw.active === 'false'
        ? false
        : undefined,
});

export const itemFormSearch = (raw: Record<string, unknown>): { duplicateOf?: string } => ({
  duplicateOf: str(raw.duplicateOf),
});
