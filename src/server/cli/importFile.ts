import type { z } from 'zod';
import { analyzeTables, type Db, tablesWrittenInTransaction } from '../db/index.ts';
import { domains } from '../domains/index.ts';
import { noteCommitted } from '../events/changes.ts';
import { ApiError } from '../platform/errors.ts';
import { enterImportTenant, type Importer, PLATFORM_KEYS_BEFORE, tenantRoot } from '../platform/importer.ts';
import { JsonSyntaxError, parseStrictJson } from '../platform/strictJson.ts';
import { check } from '../platform/validation.ts';
import { type GeneratedCredential, platformImporters } from './platformImporters.ts';

/**
 * Every key of the import file, in the order they are applied: the platform's and each
 * domain's (a domain adds a key by adding an importer to its importers.ts).
 */
export function importerRegistry(onGenerated?: (c: GeneratedCredential) => void): Importer[] {
  const all = [...platformImporters(onGenerated), ...domains.flatMap((d) => d.importers ?? [])];
  const seen = new Set<string>();
  for (const i of all) {
    if (seen.has(i.key)) throw new Error(`two importers claim the key ${i.key}`);
    seen.add(i.key);
  }
  return all.sort((a, b) => a.order - b.order);
}

/** A problem in the file, located by JSON path (`customers[3].addressDetails.city: required`). */
export interface ImportProblem {
  path: string;
  message: string;
}

export class ImportValidationError extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n'));
  }
}

export class ImportApplyError extends Error {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    const detail =
      cause instanceof ApiError
        ? cause.errors.map((e) => `${e.code} (${e.message})`).join('; ')
        : cause instanceof Error
          ? cause.message
          : String(cause);
    super(`${key}: ${detail}`, { cause });
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'required';
  if (issue.code === 'unrecognized_keys')
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
  return issue.message;
}

export interface ValidatedFile {
  /** Parsed (and normalised by the schemas) rows of each key present in the file. */
  rows: Map<string, unknown[]>;
}

/** Validates the whole document: every key known, every element valid. Nothing is written. */
export function validateImport(document: unknown, registry: Importer[]): ValidatedFile {
  const problems: ImportProblem[] = [];
  const rows = new Map<string, unknown[]>();
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new ImportValidationError([{ path: '', message: 'the file must hold a JSON object' }]);
  const byKey = new Map(registry.map((i) => [i.key, i]));
  for (const [key, value] of Object.entries(document)) {
    const importer = byKey.get(key);
    if (!importer) {
      problems.push({
        path: formatPath([key]),
        message: `unknown key (known keys: ${registry.map((i) => i.key).join(', ')})`,
      });
      continue;
    }
    if (!Array.isArray(value)) {
      problems.push({ path: formatPath([key]), message: 'must be an array' });
      continue;
    }
    const parsed: unknown[] = [];
    const firstIndex = new Map<string, number>();
    value.forEach((element, index) => {
      const checked = check(importer.schema, element);
      if (!checked.ok) {
        // A `__proto__` key of a strict object is reported by zod too: once is enough.
        const lines = new Set<string>();
        for (const issue of checked.issues) {
          const problem = { path: formatPath([key, index, ...issue.path]), message: issueMessage(issue) };
          const line = `${problem.path}: ${problem.message}`;
          if (!lines.has(line)) problems.push(problem);
          lines.add(line);
        }
        return;
      }
      parsed.push(checked.data);
      // Keys come out of the schema normalised (codes uppercased): ACME and acme are one record.
      const id = importer.keyOf(checked.data);
      const first = firstIndex.get(id);
      if (first === undefined) firstIndex.set(id, index);
      else
        problems.push({
          path: formatPath([key, index]),
          message: `${id} is already given at ${formatPath([key, first])}`,
        });
    });
    rows.set(key, parsed);
  }
  if (problems.length > 0) throw new ImportValidationError(problems);
  return { rows };
}

/** Reads the file's text: strict JSON (a duplicated key is refused, like the API does). */
export function parseImportText(text: string): unknown {
  try {
    return parseStrictJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new ImportValidationError([{ path: '', message: `invalid JSON: ${e.message}` }]);
    throw e;
  }
}

export interface KeyResult {
  key: string;
  rows: number;
  created: number;
  updated: number;
}

class DryRunRollback extends Error {}

/** The code of the file's root office when its `offices` give exactly one. */
function fileRoot(offices: unknown[] | undefined): string | undefined {
  const roots = (offices ?? []).filter((o) => !(o as { parentCode?: string | null }).parentCode);
  return roots.length === 1 ? (roots[0] as { code: string }).code : undefined;
}

/**
 * Validates the document, then applies every key in order inside one transaction: the
 * file is imported whole or not at all. With `dryRun` the transaction is rolled back
 * after applying, so the counts tell what an import would do.
 *
 * The platform's keys (offices, applications, users) are the instance's; every other row
 * is written inside one tenant, as a request of that tenant would be (db/tenant.ts): the
 * tenant of the row's office (importOffice; customers, sites and assets without one: of
 * the record they name), else the import's: `tenant` (a root office's code), by default
 * the one root office the file's `offices` give, else the instance's first root office. A
 * row's references resolve inside its tenant.
 */
export async function runImport(
  db: Db,
  document: unknown,
  options: { dryRun?: boolean; tenant?: string; onGenerated?: (c: GeneratedCredential) => void } = {},
): Promise<KeyResult[]> {
  const generated: GeneratedCredential[] = [];
  const registry = importerRegistry((c) => generated.push(c));
  const { rows } = validateImport(document, registry);
  const results: KeyResult[] = [];
  let written: string[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      let root: string | undefined;
      for (const importer of registry) {
        const keyRows = rows.get(importer.key);
        if (!keyRows) continue;
        // Each key of a tenant starts in the import's tenant (a row with an office moves
        // to that office's: importOffice).
        if (importer.order >= PLATFORM_KEYS_BEFORE) {
          root ??= (await tenantRoot(trx, options.tenant ?? fileRoot(rows.get('offices')))).id;
          await enterImportTenant(trx, root);
        }
        let counts: { created: number; updated: number };
        try {
          counts = await importer.apply(trx, keyRows);
        } catch (e) {
          throw new ImportApplyError(importer.key, e);
        }
        results.push({ key: importer.key, rows: keyRows.length, ...counts });
      }
      if (options.dryRun) throw new DryRunRollback();
      written = await tablesWrittenInTransaction(trx);
    });
  } catch (e) {
    if (!(e instanceof DryRunRollback)) throw e;
  }
  // Committed: the change streams are told, as after a writeTransaction.
  if (!options.dryRun) noteCommitted();
  // The planner's statistics of the tables the import wrote (db/index.ts).
  await analyzeTables(db, written);
  // Credentials are shown only once the import is committed (never for a dry run).
  if (!options.dryRun) for (const c of generated) options.onGenerated?.(c);
  return results;
}
