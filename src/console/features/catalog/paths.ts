/** URLs of the Catalog pages (the router's routes for them). */
export const ITEMS_PATH = '/catalog/items';
export const NEW_ITEM_PATH = '/catalog/items/new';
export const SKILLS_PATH = '/staff/skills';
export const CHARACTERISTICS_PATH = '/staff/characteristics';

export const itemPath = (code: string) => `${ITEMS_PATH}/${encodeURIComponent(code.toUpperCase())}`;

/** The items list view as it lives in the URL (a link reproduces the view). */
export interface ItemsSearch {
  q?: string;
  category?: string;
  active?: boolean;
}

export function parseItemsSearch(raw: Record<string, unknown>): ItemsSearch {
  const out: ItemsSearch = {};
  if (typeof raw.q === 'string' && raw.q.trim()) out.q = raw.q.trim().slice(0, 200);
  if (typeof raw.category === 'string' && raw.category !== '') out.category = raw.category.slice(0, 200);
  if (raw.active === true || raw.active === 'true') out.active = true;
  else if (raw.active === false || raw.active === 'false') out.active = false;
  return out;
}

/** Search of `/catalog/items/new`: the item a copy starts from. */
export function parseItemFormSearch(raw: Record<string, unknown>): { duplicateOf?: string } {
  return typeof raw.duplicateOf === 'string' && raw.duplicateOf.trim()
    ? { duplicateOf: raw.duplicateOf.trim().toUpperCase() }
    : {};
}
