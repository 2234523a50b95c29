/**
 * Rules of skills and characteristics. Both are catalog data of the tenant (migration 090), not
 * office-scoped: one list shared by every office, read by every application; only
 * applications and users of a root office write skills (characteristics: the import only).
 */

import { foldCode, type Page } from '../../../contract/common.ts';
import {
  CHARACTERISTICS_PAGE_SIZE,
  type Characteristic,
  SKILL_ERROR_PREFIX,
  SKILLS_PAGE_SIZE,
  type Skill,
  StaffCodes,
} from '../../../contract/staff.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../platform/errors.ts';
import { assertRootOffice, type OfficeScope } from '../../platform/officeScope.ts';
import { type PageTokens, toPage } from '../../platform/pagination.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { type IfMatch, versionedWrite, type Written } from '../../platform/versions.ts';
import {
  type CatalogEntry,
  type CatalogTable,
  catalogEntriesAfter,
  catalogEntry,
  upsertCatalogEntry,
} from './queries.ts';

/** What a PUT or an import row carries, code already uppercased by the contract. */
export interface CatalogEntryInput {
  code: string;
  name: string;
  description?: string | null;
}

const normalise = (e: CatalogEntryInput): CatalogEntry => ({
  code: foldCode(e.code),
  name: e.name,
  // Absent is stored as null; an empty string stays empty (General conventions 5).
  description: e.description ?? null,
});

/**
 * The skill PUT: the writer must belong to a root office (the catalog is instance-wide).
 * With If-Match, only the version given is replaced (platform/versions.ts).
 */
export function putSkill(
  db: Db,
  scope: OfficeScope,
  input: CatalogEntryInput,
  ifMatch?: IfMatch,
): Promise<Written> {
  assertRootOffice(scope, 'The skill catalog');
  const code = foldCode(input.code);
  return versionedWrite(
    db,
    { table: 'skills', key: 'code', value: code, prefix: SKILL_ERROR_PREFIX, label: `Skill ${code}` },
    ifMatch,
    (trx) => writeSkill(trx, input),
  );
}

/** Creates or replaces a skill; the import writes through here too. */
export function writeSkill(db: Db, input: CatalogEntryInput): Promise<WriteOutcome> {
  return upsertCatalogEntry(db, 'skills', normalise(input));
}

/** Characteristics are read-only through the API: only the import file writes them. */
export function putCharacteristic(db: Db, input: CatalogEntryInput): Promise<WriteOutcome> {
  return upsertCatalogEntry(db, 'characteristics', normalise(input));
}

async function page<T>(
  db: Db,
  tokens: PageTokens,
  table: CatalogTable,
  tokenNamespace: string,
  continuationToken: string | undefined,
  size: number,
  map: (e: CatalogEntry) => T,
): Promise<Page<T>> {
  const after = tokens.decode<string>(tokenNamespace, continuationToken, StaffCodes.continuationTokenInvalid);
  const rows = await catalogEntriesAfter(db, table, typeof after === 'string' ? after : undefined, size + 1);
  return toPage(rows, size, map, (r) => r.code, tokens, tokenNamespace);
}

export function listSkills(db: Db, tokens: PageTokens, continuationToken?: string): Promise<Page<Skill>> {
  return page(db, tokens, 'skills', 'staff.skills.list', continuationToken, SKILLS_PAGE_SIZE, (e) => ({
    skillCode: e.code,
    name: e.name,
    description: e.description,
  }));
}

export function listCharacteristics(
  db: Db,
  tokens: PageTokens,
  continuationToken?: string,
): Promise<Page<Characteristic>> {
  return page(
    db,
    tokens,
    'characteristics',
    'staff.characteristics.list',
    continuationToken,
    CHARACTERISTICS_PAGE_SIZE,
    (e) => ({ characteristicCode: e.code, name: e.name, description: e.description }),
  );
}

/** The skill of this code in the tenant's catalog, or 404 (its history: issue 29). */
export async function findSkill(db: Db, code: string): Promise<CatalogEntry> {
  const entry = await catalogEntry(db, 'skills', code);
  if (!entry) throw notFound(StaffCodes.skillNotFound, `Skill ${code} does not exist`);
  return entry;
}
