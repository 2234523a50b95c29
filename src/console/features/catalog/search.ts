/**
 * The URL search params of the Catalog routes, validated by the router (pages read them
 * through `getRouteApi`). Light on purpose: they load with the shell.
 */
import { bool, text } from '../../app/searchParams.ts';

/** The items list view (a link reproduces it). The list is sorted by code. */
export interface ItemsSearch {
  q?: string;
  category?: string;
  active?: boolean;
}
export function validateItemsSearch(raw: Record<string, unknown>): ItemsSearch {
  return {
    q: text(raw.q),
    category: text(raw.category),
    active: bool(raw.active),
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
