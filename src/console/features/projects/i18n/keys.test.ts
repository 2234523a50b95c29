/**
 * Every literal key the feature's code asks for exists in English (French has the same keys:
 * registry.test.ts), in the namespace of the file's `useTranslation` (the feature's own, or
 * `common` for the parts that only use the shell's words).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import common from '../../../i18n/en.ts';
import en from './en.ts';

type Bundle = { readonly [k: string]: unknown };
const keysOf = (b: Bundle, prefix = ''): string[] =>
  Object.entries(b).flatMap(([k, v]) =>
    v && typeof v === 'object'
      ? keysOf(v as Bundle, `${prefix}${k}.`)
      : [`${prefix}${k.replace(/_(one|other)$/, '')}`],
  );

const root = join(import.meta.dirname, '..');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'i18n' ? [] : files(p);
    return /\.tsx?$/.test(f) && !/\.test\.ts$/.test(f) ? [p] : [];
  });

describe('the strings the feature asks for', () => {
  const own = new Set(keysOf(en));
  const shared = new Set(keysOf(common));
  for (const file of files(root)) {
    const source = readFileSync(file, 'utf8');
    const ns = /useTranslation\('(\w+)'\)/.exec(source)?.[1];
    if (!ns) continue;
    it(`${file.slice(root.length + 1)} (${ns})`, () => {
      const keys = [...source.matchAll(/\bt\(\s*'([\w.]+)'/g)].map((m) => m[1]);
      const known = ns === 'common' ? shared : own;
      expect(keys.filter((k) => !known.has(k))).toEqual([]);
    });
  }
});
