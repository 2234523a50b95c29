import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index.ts';

/**
 * A hot read built and compiled by Kysely once, then executed with each call's values.
 *
 * Building a query (immutable operation nodes, frozen at each step) and compiling it to
 * SQL cost more CPU than the database's answer to a read by key on PGlite
 * (docs/performance.md). `prepared(build)` runs `build` once with placeholder values in place of
 * every string of its arguments (each a text that no real value holds: it starts with the
 * NUL character, which PostgreSQL text cannot store), compiles it, and notes where each
 * placeholder went among the parameters. A call then only computes the parameters from its
 * own arguments and executes the compiled SQL on the given database or transaction (each
 * driver keeps it as a prepared statement: db/index.ts, db/pglite.ts).
 *
 * Its arguments are texts, or plain objects of texts (an office scope). What `build` may do
 * with them: pass them, or texts made from them by
 * concatenation (`${scope.path}%`), as query values. Not: choose the query's shape from
 * them (an `if` on a value), put them in the SQL text (`sql.raw`, `sql.ref`), or transform
 * them (upper-casing, escaping) before they become values. The first call of each process
 * builds the query with its real arguments too and throws when the two differ, so a
 * builder that breaks this rule fails in the first test that runs it.
 */
export interface Prepared<A extends unknown[], O> {
  execute(db: Db, ...args: A): Promise<O[]>;
  executeTakeFirst(db: Db, ...args: A): Promise<O | undefined>;
}

const MARK = '\u0000';
const PLACEHOLDER = new RegExp(`${MARK}(\\d+)${MARK}`, 'g');

/** A parameter: a constant of the query, or a text assembled from literal parts and argument slots. */
type Part = string | number;
type ParameterPlan = { constant: unknown } | { parts: Part[] };

interface Plan {
  sql: string;
  query: CompiledQuery['query'];
  parameters: ParameterPlan[];
  /** The argument value of each slot: its argument index and the keys down to it. */
  slots: { arg: number; keys: string[] }[];
}

/**
 * The arguments with each string replaced by its placeholder; records each slot's path.
 * Only texts and plain objects of texts: any other value (a number, a boolean, null, an
 * array, a Date) would be kept in the plan as the first call's value, so it is refused.
 */
function placeholders(name: string, args: unknown[], slots: Plan['slots']): unknown[] {
  const walk = (value: unknown, arg: number, keys: string[]): unknown => {
    if (typeof value === 'string') {
      slots.push({ arg, keys });
      return `${MARK}${slots.length - 1}${MARK}`;
    }
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, arg, [...keys, k]);
      return out;
    }
    throw new Error(
      `prepared query ${name}: argument ${[arg, ...keys].join('.')} is not a text (${String(value)}); only texts can be parameters`,
    );
  };
  return args.map((a, i) => walk(a, i, []));
}

function valueAt(args: unknown[], slot: Plan['slots'][number]): unknown {
  let v: unknown = args[slot.arg];
  for (const k of slot.keys) v = (v as Record<string, unknown>)[k];
  return v;
}

function parameterPlan(p: unknown): ParameterPlan {
  if (typeof p !== 'string' || !p.includes(MARK)) return { constant: p };
  const parts: Part[] = [];
  let at = 0;
  for (const m of p.matchAll(PLACEHOLDER)) {
    if (m.index > at) parts.push(p.slice(at, m.index));
    parts.push(Number(m[1]));
    at = m.index + m[0].length;
  }
  if (at < p.length) parts.push(p.slice(at));
  return { parts };
}

function parametersOf(plan: Plan, args: unknown[]): unknown[] {
  const out = new Array<unknown>(plan.parameters.length);
  for (let i = 0; i < plan.parameters.length; i++) {
    const p = plan.parameters[i];
    if ('constant' in p) {
      out[i] = p.constant;
      continue;
    }
    const { parts } = p;
    if (parts.length === 1 && typeof parts[0] === 'number') {
      out[i] = valueAt(args, plan.slots[parts[0]]);
      continue;
    }
    let text = '';
    for (const part of parts)
      text += typeof part === 'number' ? String(valueAt(args, plan.slots[part])) : part;
    out[i] = text;
  }
  return out;
}

const sameParameters = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((v, i) => v === b[i] || JSON.stringify(v) === JSON.stringify(b[i]));

export function prepared<A extends unknown[], O>(
  name: string,
  build: (db: Db, ...args: A) => Compilable<O>,
): Prepared<A, O> {
  let plan: Plan | undefined;
  let checked = false;

  function planOf(db: Db, args: A): Plan {
    const slots: Plan['slots'] = [];
    const compiled = build(db, ...(placeholders(name, args, slots) as A)).compile();
    if (compiled.sql.includes(MARK))
      throw new Error(`prepared query ${name}: an argument reached the SQL text, not a parameter`);
    return {
      sql: compiled.sql,
      query: compiled.query,
      parameters: compiled.parameters.map(parameterPlan),
      slots,
    };
  }

  async function execute(db: Db, ...args: A): Promise<O[]> {
    plan ??= planOf(db, args);
    const parameters = parametersOf(plan, args);
    if (!checked) {
      // Once per process: the plan must give what building with these arguments gives.
      const direct = build(db, ...args).compile();
      if (direct.sql !== plan.sql || !sameParameters(direct.parameters, parameters))
        throw new Error(
          `prepared query ${name}: its arguments shape the query or are transformed before they become parameters`,
        );
      checked = true;
    }
    const result = await db.executeQuery<O>({
      sql: plan.sql,
      parameters,
      query: plan.query,
    } as CompiledQuery<O>);
    return result.rows;
  }

  return {
    execute,
    async executeTakeFirst(db: Db, ...args: A) {
      return (await execute(db, ...args))[0];
    },
  };
}
