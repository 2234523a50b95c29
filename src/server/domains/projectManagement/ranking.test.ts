import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cycleMessage,
  getProject,
  linkProject,
  parseCyclePath,
} from '../../../contract/projectManagement.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { UNLIMITED } from './fixture.ts';
import { cycleThrough, findCycle } from './graph.ts';
import { keyBetween, RANK_STEP } from './ranking.ts';

describe('order keys', () => {
  it('a key strictly between its neighbours; undefined when they touch', () => {
    expect(keyBetween(undefined, undefined)).toBe(0);
    expect(keyBetween(undefined, 10)).toBe(10 - RANK_STEP);
    expect(keyBetween(10, undefined)).toBe(10 + RANK_STEP);
    expect(keyBetween(10, 20)).toBe(15);
    expect(keyBetween(10, 12)).toBe(11);
    expect(keyBetween(10, 11)).toBeUndefined();
    expect(keyBetween(2 ** 52, undefined)).toBeUndefined();
  });
});

describe('dependency graph', () => {
  const edges = (...pairs: [string, string][]) => pairs.map(([blocking, blocked]) => ({ blocking, blocked }));
  it('finds the cycle through the linked job, with its path', () => {
    expect(cycleThrough('a', edges(['a', 'b'], ['b', 'c']))).toBeUndefined();
    expect(cycleThrough('a', edges(['a', 'b'], ['b', 'c'], ['c', 'a']))).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleThrough('a', edges(['a', 'a']))).toEqual(['a', 'a']);
    // A cycle elsewhere is not the linked job's (the stored graph never holds one).
    expect(cycleThrough('a', edges(['a', 'b'], ['c', 'd'], ['d', 'c']))).toBeUndefined();
  });

  it('finds any cycle of a whole set (import)', () => {
    expect(findCycle(edges(['1', '2'], ['2', '3'], ['1', '3']))).toBeUndefined();
    expect(findCycle(edges(['1', '2'], ['2', '3'], ['3', '2']))).toEqual(['2', '3', '2']);
  });

  it('agrees with a brute-force reachability check on random graphs (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(7), fc.nat(7)), { maxLength: 20 }), (pairs) => {
        const es = pairs.map(([a, b]) => ({ blocking: String(a), blocked: String(b) }));
        const reach = (from: string, to: string) => {
          const seen = new Set<string>();
          const stack = [from];
          while (stack.length) {
            const n = stack.pop() as string;
            for (const e of es)
              if (e.blocking === n && !seen.has(e.blocked)) {
                if (e.blocked === to) return true;
                seen.add(e.blocked);
                stack.push(e.blocked);
              }
          }
          return false;
        };
        const path = cycleThrough('0', es);
        expect(path !== undefined).toBe(reach('0', '0'));
        if (path) {
          expect(path[0]).toBe('0');
          expect(path[path.length - 1]).toBe('0');
          for (let i = 1; i < path.length; i++)
            expect(es.some((e) => e.blocking === path[i - 1] && e.blocked === path[i])).toBe(true);
        }
        const any = findCycle(es);
        expect(any !== undefined).toBe([...Array(8).keys()].some((n) => reach(String(n), String(n))));
      }),
      { numRuns: 300 },
    );
  });

  it('the cycle message carries a path the console can read back', () => {
    const path = [
      { jobType: 'workOrder' as const, code: 'WO-1.A_B' },
      { jobType: 'task' as const, code: '12' },
      { jobType: 'workOrder' as const, code: 'WO-1.A_B' },
    ];
    expect(parseCyclePath(cycleMessage(path))).toEqual(path);
    expect(parseCyclePath('no cycle here')).toBeUndefined();
  });
});

describe('order of a project through the API: random moves against a model (fast-check)', () => {
  let t: TestApp;
  const N = 8;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: UNLIMITED });
    await runImport(t.db, {
      workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60 }],
      workOrders: Array.from({ length: N }, (_, i) => ({
        workOrderCode: `W${i}`,
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'ROOT',
      })),
    });
  });
  afterAll(() => t.close());

  type Op =
    | { mode: 'first' | 'last'; w: number }
    | { mode: 'index'; w: number; position: number }
    | { mode: 'before' | 'after'; w: number; rel: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ mode: fc.constantFrom('first' as const, 'last' as const), w: fc.nat(N - 1) }),
    fc.record({ mode: fc.constant('index' as const), w: fc.nat(N - 1), position: fc.nat(N + 2) }),
    fc.record({
      mode: fc.constantFrom('before' as const, 'after' as const),
      w: fc.nat(N - 1),
      rel: fc.nat(2),
    }),
  );

  it('every sequence of links ends in the order the model computes: no gap, no duplicate', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const code = `ORD-${run++}`;
        // Three tasks to place work orders around.
        await runImport(t.db, {
          projects: [
            {
              projectCode: code,
              name: 'Order',
              officeCode: 'ROOT',
              jobs: [1, 2, 3].map((n) => ({ jobType: 'task', code: n })),
            },
          ],
        });
        const model = ['task:1', 'task:2', 'task:3'];
        for (const o of ops) {
          const self = `workOrder:W${o.w}`;
          const insertion: Record<string, unknown> = { insertionMode: o.mode };
          const rest = model.filter((j) => j !== self);
          let at: number;
          if (o.mode === 'first') at = 0;
          else if (o.mode === 'last') at = rest.length;
          else if (o.mode === 'index') {
            insertion.position = o.position;
            at = Math.min(o.position, rest.length);
          } else if (o.mode === 'before' || o.mode === 'after') {
            const rel = `task:${o.rel + 1}`;
            insertion.relativePosition = String(o.rel + 1);
            insertion.jobType = 'task';
            at = rest.indexOf(rel) + (o.mode === 'after' ? 1 : 0);
          } else throw new Error('unknown mode');
          const res = await t.api(linkProject, {
            params: { projectCode: code },
            body: { type: 'workOrder', code: `W${o.w}`, insertion },
          });
          expect(res.statusCode, res.body).toBe(204);
          model.splice(0, model.length, ...rest.slice(0, at), self, ...rest.slice(at));
        }
        const read = (await t.api(getProject, { params: { projectCode: code } })).json();
        expect(read.jobs.map((j: { jobType: string; code: string }) => `${j.jobType}:${j.code}`)).toEqual(
          model,
        );
      }),
      { numRuns: 25 },
    );
  });
});
