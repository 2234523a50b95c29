/** node-postgres's own serialization of a query parameter (used by the PGlite driver too). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
