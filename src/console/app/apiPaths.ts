/**
 * Paths of the contract rows the shell calls by path (`api.raw`), so that the shell's
 * bundle does not carry the contract's schemas; features/registry.test.ts checks each is
 * the path of its row.
 */
/** `getMe`: who the token speaks for. */
export const ME_PATH = '/eTech/rest/ws/console/v1/me';
/** `listOffices`: the caller's office tree (Home). */
export const OFFICES_PATH = '/eTech/rest/ws/referentials/v1/offices';
