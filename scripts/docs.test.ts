/**
 * Every relative link of the repository's Markdown resolves: the file (or folder) exists and,
 * when the link names a heading (`file.md#anchor`, `#anchor`), the file has that heading.
 * Documentation moves with the code (docs/architecture.md); a moved page or a renamed heading
 * fails here instead of leaving a dead link.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Markdown files git knows of, tracked or new (not ignored: no node_modules, dist). */
function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .filter((file) => existsSync(join(root, file)));
}

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors of a Markdown file's headings, a repeated one numbered as GitHub does (`x`, `x-1`). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Link {
  from: string;
  target: string;
}

function relativeLinks(file: string): Link[] {
  const text = prose(readFileSync(join(root, file), 'utf8'));
  const links: Link[] = [];
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // https:, mailto:
    links.push({ from: file, target });
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function problem({ from, target }: Link): string | undefined {
  const [path = '', anchor] = target.split('#');
  const file = path === '' ? join(root, from) : resolve(dirname(join(root, from)), decodeURI(path));
  // A link out of the repository (the shared design notes beside it) is not the repository's to check.
  if (relative(root, file).startsWith('..')) return undefined;
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return 'an anchor on a file that is not Markdown';
  return anchors(file).has(decodeURIComponent(anchor)) ? undefined : `no heading #${anchor}`;
}

describe('Markdown links', () => {
  const files = markdownFiles();

  it('finds the documentation', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
  });

  it('every relative link resolves to a file and, when it names one, a heading', () => {
    const links = files.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(50);
    const broken = links.flatMap((link) => {
      const why = problem(link);
      return why ? [`${link.from}: ${link.target} (${why})`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('a link to a missing file or heading is reported', () => {
    expect(problem({ from: 'README.md', target: 'docs/nothing-here.md' })).toBe('no such file');
    expect(problem({ from: 'README.md', target: 'docs/operations.md#no-such-heading' })).toBe(
      'no heading #no-such-heading',
    );
    expect(problem({ from: 'docs/api/README.md', target: '../operations.md#import-file' })).toBeUndefined();
  });

  it('anchors are made as GitHub makes them', () => {
    expect(slug('Getting a token and calling the API')).toBe('getting-a-token-and-calling-the-api');
    expect(slug('Planning (rostering and scheduling)')).toBe('planning-rostering-and-scheduling');
    expect(slug('`docs/` by reader: a.b')).toBe('docs-by-reader-ab');
  });
});
