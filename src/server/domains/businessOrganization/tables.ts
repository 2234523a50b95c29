/** Kysely types of this domain's tables (see db/migrations). */
// biome-ignore lint/complexity/noBannedTypes: filled as the domain grows
export type BusinessOrganizationTables = {};
