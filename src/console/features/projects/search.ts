/**
 * The URL search params of the Project management routes, validated by the router (pages
 * read them through `getRouteApi`). Light on purpose: they load with the shell.
 */
import { text } from '../../app/searchParams.ts';

/** A list: the text contained in the codes (`?q=`; the palette opens a code this way). */
export interface ListSearch {
  q?: string;
}
export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  return { q: text(raw.q) };
}

/** The project linker: which view of the dependencies is shown beside the jobs. */
export interface LinkerSearch {
  view?: 'graph' | 'list';
}
export function validateLinkerSearch(raw: Record<string, unknown>): LinkerSearch {
  return { view: raw.view === 'list' ? 'list' : raw.view === 'graph' ? 'graph' : undefined };
}
