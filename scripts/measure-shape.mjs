#!/usr/bin/env node
/**
 * The shape figures of issue 26, read from the source with the TypeScript compiler's parser:
 * functions over 80 and over 150 lines, casts in production code, `duplicates` pairs over
 * src, and (with --commits) the lines the issue's commits added and removed.
 *
 *   node scripts/measure-shape.mjs                 figures of this tree, the long functions listed
 *   node scripts/measure-shape.mjs --root DIR      the same of another checkout (a `git worktree` of an older commit)
 *   node scripts/measure-shape.mjs --commits @FILE  also the lines added/removed by the commits listed in FILE
 *   node scripts/measure-shape.mjs --before DIR    beside the figures of another checkout (`git worktree add --detach DIR REV`)
 *   node scripts/measure-shape.mjs --markdown      one Markdown table (bench/results/issue26.md)
 *   node scripts/measure-shape.mjs --casts         every cast listed, by file
 *
 * Production code is src/ without tests (`*.test.ts(x)`, `*.spec.ts`) and without the test
 * helpers (`src/server/testing/`). A function's length is from the line of its first token
 * to the line of its last; a nested function counts in its own right and inside its parent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as is from 'typescript/unstable/ast/is';
import { computeLineStarts, skipTrivia } from 'typescript/unstable/ast/scanner';
import { API } from 'typescript/unstable/sync';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = option('--root') ?? process.cwd();
/** A checkout of the commit to compare with (`git worktree add --detach DIR REV`). */
const beforeRoot = option('--before');
/** Commits whose lines are counted, comma-separated, or @FILE with one hash a line. */
const commitsOption = option('--commits');
const markdown = args.includes('--markdown');
const listCasts = args.includes('--casts');
/** The folders measured (src by default; `--dirs src,scripts` adds the scripts). */
const dirs = (option('--dirs') ?? 'src').split(',');

const isTest = (path) => /\.(test|spec)\.tsx?$/.test(path) || path.includes('/testing/');

const isFunction = (node) =>
  is.isFunctionDeclaration(node) ||
  is.isFunctionExpression(node) ||
  is.isArrowFunction(node) ||
  is.isMethodDeclaration(node) ||
  is.isConstructorDeclaration(node) ||
  is.isGetAccessorDeclaration(node) ||
  is.isSetAccessorDeclaration(node);

/** `x as T` and `<T>x`, but not `as const` (a literal's narrowing, not a claim about a type). */
const isCast = (node, text) =>
  (is.isAsExpression(node) || is.isTypeAssertion(node)) &&
  text.slice(skipTrivia(text, node.type.pos), node.type.end) !== 'const';

/** The name a reader would look for: the declaration's, or the variable's, property's or call's it is given to. */
function nameOf(node, text) {
  const source = (n) => text.slice(skipTrivia(text, n.pos), n.end);
  if (node.name) return source(node.name);
  const parent = node.parent;
  if (parent && (is.isVariableDeclaration(parent) || is.isPropertyAssignment(parent)))
    return source(parent.name);
  if (parent && is.isCallExpression(parent)) return `${source(parent.expression).slice(0, 40)}(…)`;
  if (is.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** The line (0-based) of a position, by binary search in the line starts. */
function lineOf(starts, pos) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Every function of src's production code with its length, and the count of casts, from tsconfig.json's program. */
function measure(srcRoot) {
  const api = new API({ cwd: srcRoot });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [join(srcRoot, 'tsconfig.json')] });
    const { program } = snapshot.getProjects()[0];
    const functions = [];
    const casts = [];
    for (const path of program.getSourceFileNames()) {
      const rel = relative(srcRoot, path);
      if (!dirs.some((d) => rel.startsWith(`${d}/`)) || isTest(rel) || rel.endsWith('.d.ts')) continue;
      const file = program.getSourceFile(path);
      const text = file.text;
      const starts = computeLineStarts(text);
      const visit = (node) => {
        if (isFunction(node) && node.body) {
          const start = lineOf(starts, skipTrivia(text, node.pos));
          const end = lineOf(starts, node.end - 1);
          functions.push({ file: rel, line: start + 1, name: nameOf(node, text), lines: end - start + 1 });
        }
        if (isCast(node, text))
          casts.push(
            `${rel}:${lineOf(starts, skipTrivia(text, node.pos)) + 1}  ${text.slice(skipTrivia(text, node.pos), node.end).replace(/\s+/g, ' ').slice(-90)}`,
          );
        node.forEachChild(visit);
      };
      file.forEachChild(visit);
    }
    functions.sort((a, b) => b.lines - a.lines);
    return { functions, casts };
  } finally {
    api.close();
  }
}

/** `duplicates` (the library's command) over src: the count on its first line. */
function duplicatePairs(srcRoot) {
  const r = spawnSync('duplicates', ['--repo', join(srcRoot, 'src'), '--seconds', '300'], {
    encoding: 'utf8',
  });
  if (r.error) return { pairs: null, line: `duplicates not run: ${r.error.message}` };
  const first = r.stdout.split('\n')[0];
  const m = /(\d+) pairs?/.exec(first);
  return { pairs: m ? Number(m[1]) : 0, line: first, incomplete: r.stdout.includes('incomplete:') };
}

/** Lines added and removed by the given commits (`git show --numstat` of each). */
function commitLines(srcRoot, hashes) {
  const commits = [];
  let added = 0;
  let removed = 0;
  for (const hash of hashes) {
    const out = execFileSync('git', ['-C', srcRoot, 'show', '--numstat', '--format=@%h %s', hash], {
      encoding: 'utf8',
    });
    for (const line of out.split('\n')) {
      if (line.startsWith('@')) commits.push(line.slice(1));
      const m = /^(\d+)\t(\d+)\t/.exec(line);
      if (m) {
        added += Number(m[1]);
        removed += Number(m[2]);
      }
    }
  }
  return { commits, added, removed };
}

/** The figures of one checkout. */
function figures(srcRoot) {
  const { functions, casts } = measure(srcRoot);
  return {
    over80: functions.filter((f) => f.lines > 80),
    over150: functions.filter((f) => f.lines > 150),
    casts: casts.length,
    castList: casts,
    duplicates: listCasts ? { pairs: null, line: 'not run (--casts)' } : duplicatePairs(srcRoot),
  };
}

const now = figures(root);
const before = beforeRoot ? figures(beforeRoot) : null;
const hashes = commitsOption?.startsWith('@')
  ? readFileSync(commitsOption.slice(1), 'utf8')
      .split('\n')
      .map((l) => l.split(/\s/)[0])
      .filter(Boolean)
  : commitsOption?.split(',');
const lines = hashes ? commitLines(root, hashes) : null;

const rows = [
  ['functions over 80 lines', (f) => f.over80.length],
  ['functions over 150 lines', (f) => f.over150.length],
  ['casts in production code (`as X`, not `as const`)', (f) => f.casts],
  ['`duplicates` pairs over src', (f) => f.duplicates.pairs ?? 'not run'],
];
const list = (fns) => fns.map((f) => `${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);

if (listCasts) {
  for (const c of now.castList) console.log(c);
} else if (markdown) {
  console.log(before ? '| figure | before | now |\n|---|---|---|' : '| figure | now |\n|---|---|');
  for (const [label, of] of rows) console.log(`| ${label} | ${before ? `${of(before)} | ` : ''}${of(now)} |`);
  if (lines)
    console.log(
      `| lines added / removed by the ${lines.commits.length} commits | | +${lines.added} / −${lines.removed} |`,
    );
  console.log('\nFunctions over 150 lines now:\n\n```');
  for (const l of list(now.over150)) console.log(l);
  console.log('```');
} else {
  for (const [label, of] of rows) console.log(`${label}: ${before ? `${of(before)} -> ` : ''}${of(now)}`);
  console.log(`duplicates: ${now.duplicates.line}${now.duplicates.incomplete ? ' (incomplete)' : ''}`);
  if (lines) {
    console.log(`lines by ${lines.commits.length} commits: +${lines.added} -${lines.removed}`);
    for (const c of lines.commits) console.log(`  ${c}`);
  }
  console.log('\nfunctions over 80 lines:');
  for (const l of list(now.over80)) console.log(`  ${l}`);
}
