/**
 * Paths of the contract rows the shell calls by path (`api.raw`), so that the shell's
 * bundle does not carry the contract's schemas; features/registry.test.ts checks each is
 * the path of its row.
 */
/** `getMe`: who the token speaks for. */
export const ME_PATH = '/eTech/rest/ws/console/v1/me';
/** `getHome`: Home's counts and offices, in one call. */
export const HOME_PATH = '/eTech/rest/ws/console/v1/home';
/** `searchRecords`: the palette's one call. */
export const SEARCH_PATH = '/eTech/rest/ws/console/v1/search';

/** What the shell reads of getHome and searchRecords (their contract types, without zod). */
export interface HomeAnswer {
  counts: { kind: string; count: number; more: boolean }[];
  offices: { code: string; name: string; parentCode: string | null; depth: number }[];
  officeCount: number;
}
export interface SearchAnswer {
  data: { kind: string; code: string; name: string; uuid?: string }[];
  kinds: { kind: string; more: boolean }[];
  continuationToken: string | null;
}
