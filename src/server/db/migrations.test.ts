import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { domains } from '../domains/index.ts';
import { migrationFiles } from './index.ts';

const dirs: string[] = [];
const folder = (files: string[]) => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-mig-'));
  dirs.push(dir);
  for (const f of files) writeFileSync(join(dir, f), '-- test');
  return pathToFileURL(`${dir}/`);
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('migrations of the platform and of every domain module', () => {
  it('are gathered from every folder and applied in number order', async () => {
    const files = await migrationFiles([
      folder(['002_b.sql', 'notes.txt']),
      folder(['001_a.sql', '003_c.sql']),
    ]);
    expect(files.map((f) => f.name)).toEqual(['001_a.sql', '002_b.sql', '003_c.sql']);
  });

  it('refuse two files with one number, in two domains', async () => {
    await expect(migrationFiles([folder(['007_a.sql']), folder(['007_b.sql'])])).rejects.toThrow(
      /two migrations numbered 007/,
    );
  });

  it('the registered domains hold no clash, and each of their files is found', async () => {
    const files = await migrationFiles();
    for (const d of domains)
      if (d.migrations) expect(files.some((f) => f.path.includes(`/${d.name}/`))).toBe(true);
  });
});
