/**
 * The URL search params of the Catalog routes, validated by the router (pages read them
 * through `getRouteApi`). Light on purpose: they load with the shell.
 */
const text = (v: unknown, max = 200) =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined;

/** The items list view (a link reproduces it). The list is sorted by code. */
export interface ItemsSearch {
  q?: string;
  category?: string;
  active?: boolean;
}
export function validateItemsSearch(raw: Record<string, unknown>): ItemsSearch {
  return {
    q: text(raw.q),
    category:
      typeof raw.category === 'string' && raw.category !== '' ? raw.category.slice(0, 200) : undefined,
    active:
      raw.active === true || raw.active === 'true'
        ? true
        : raw.active === false || raw.active === 'false'
          ? false
          : undefined,
  };
}

/** `/catalog/items/new?duplicateOf=CODE`: the item a copy starts from. */
export interface ItemNewSearch {
  duplicateOf?: string;
}
export function validateItemNewSearch(raw: Record<string, unknown>): ItemNewSearch {
  return { duplicateOf: text(raw.duplicateOf)?.toUpperCase() };
}

/** Skills and characteristics: the text filtering the list (the palette opens a code this way). */
export interface TextSearch {
  q?: string;
}
export function validateTextSearch(raw: Record<string, unknown>): TextSearch {
  return { q: text(raw.q) };
}
