/**
 * The shape of a domain (docs/architecture.md, Edges), checked on the source: SQL only in
 * `queries.ts`, every transaction a `writeTransaction`, and no domain writing a table another
 * domain owns. The import edges between domains are Biome's (biome.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('.', import.meta.url).pathname;
const domains = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/** The domain's own code: its TypeScript files but its tests and test fixtures. */
function sources(domain: string): { file: string; text: string }[] {
  return readdirSync(join(root, domain))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/^(fixture|test\w*)\.ts$/.test(f))
    .map((f) => ({ file: `${domain}/${f}`, text: readFileSync(join(root, domain, f), 'utf8') }));
}

const BUILDER = /\.(selectFrom|insertInto|updateTable|deleteFrom|mergeInto)\(|\bsql(<[^>]*>)?`/;

/**
 * Files that still hold SQL, each with the reason it is allowed for now. The slots domain's
 * service is its helper's to move (issue 28).
 */
const SQL_ELSEWHERE: Record<string, string> = {
  'slots/service.ts': 'the slots domain moves its SQL with its own rework (issue 28)',
};

/** The tables each domain declares in its tables.ts: it owns them. */
function owners(): Map<string, string> {
  const owner = new Map<string, string>();
  for (const domain of domains) {
    let text: string;
    try {
      text = readFileSync(join(root, domain, 'tables.ts'), 'utf8');
    } catch {
      continue;
    }
    const body = text.slice(text.indexOf('interface'));
    for (const m of body.matchAll(/^ {2}(\w+): \{/gm)) owner.set(m[1] ?? '', domain);
  }
  return owner;
}

describe('the shape of a domain', () => {
  it('finds the domains and their tables', () => {
    expect(domains).toEqual(expect.arrayContaining(['referentials', 'fieldService', 'projectManagement']));
    expect(owners().get('work_orders')).toBe('fieldService');
  });

  it('SQL is written in queries.ts only', () => {
    const elsewhere = domains
      .flatMap(sources)
      .filter(({ file, text }) => !file.endsWith('/queries.ts') && BUILDER.test(text))
      .map(({ file }) => file)
      .filter((file) => !SQL_ELSEWHERE[file]);
    expect(elsewhere).toEqual([]);
  });

  it('a transaction is a writeTransaction (retried on a deadlock), opened in a service', () => {
    const opened = domains
      .flatMap(sources)
      .filter(({ text }) => /\.transaction\(\)/.test(text))
      .map(({ file }) => file);
    expect(opened).toEqual([]);
    const inRoutes = domains
      .flatMap(sources)
      .filter(({ file, text }) => file.endsWith('/routes.ts') && /writeTransaction/.test(text))
      .map(({ file }) => file);
    expect(inRoutes).toEqual([]);
  });

  it('a domain writes only the tables it owns', () => {
    const owner = owners();
    const writes = domains.flatMap((domain) =>
      sources(domain).flatMap(({ file, text }) =>
        [
          ...text.matchAll(
            /\.(?:insertInto|updateTable|deleteFrom)\(\s*'(\w+)|\b(?:INSERT INTO|UPDATE|DELETE FROM)\s+(\w+)/g,
          ),
        ]
          .map((m) => m[1] ?? m[2] ?? '')
          .filter((table) => owner.has(table) && owner.get(table) !== domain)
          .map((table) => `${file} writes ${table} (${owner.get(table)}'s)`),
      ),
    );
    expect(writes).toEqual([]);
  });

  it('the check sees a write into another domain and SQL out of place', () => {
    expect(BUILDER.test("await trx.updateTable('work_orders').set({})")).toBe(true);
    expect(BUILDER.test('const q = sql`SELECT 1`')).toBe(true);
    expect(BUILDER.test('const text = "selectFrom is a word"')).toBe(false);
  });
});
