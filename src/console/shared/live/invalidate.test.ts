import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ChangeEntry } from './entry.ts';
import { changeApplier, type HeldRecord, historyKey, reloadShown } from './invalidate.ts';

const entry = (over: Partial<ChangeEntry>): ChangeEntry => ({
  id: '1',
  kind: 'customer',
  code: 'ACME',
  uuid: null,
  officeCode: 'NORTH',
  action: 'updated',
  actor: { type: 'webUser', identifier: 'alice' },
  at: '2026-11-28T12:00:00Z',
  fields: [],
  ...over,
});

/** A query shown on screen (an observer), counting its reads. */
function shown(qc: QueryClient, queryKey: readonly unknown[]) {
  let reads = 0;
  const observer = new QueryObserver(qc, {
    queryKey,
    queryFn: async () => ++reads,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const stop = observer.subscribe(() => {});
  return { reads: () => reads, stop };
}

const settle = () => new Promise((r) => setTimeout(r, 30));
/** One entry applied on its own (a batch of one). */
const apply = async (qc: QueryClient, e: ChangeEntry, held: HeldRecord[] = []) => {
  changeApplier(qc, () => held, 1)(e);
  await settle();
};

describe('what a change entry makes stale', () => {
  it("reads again the shown queries of the entry's kind and its history, not the others", async () => {
    const qc = new QueryClient();
    const record = shown(qc, ['referentials', 'customer', 'record', 'ACME']);
    const list = shown(qc, ['referentials', 'customer', 'list', { q: '' }]);
    const history = shown(qc, [...historyKey('customer', 'acme'), '']);
    const sites = shown(qc, ['referentials', 'site', 'list', {}]);
    const home = shown(qc, ['home']);
    await settle();
    await apply(qc, entry({}));
    await settle();
    expect([record.reads(), list.reads(), history.reads()]).toEqual([2, 2, 2]);
    expect([sites.reads(), home.reads()]).toEqual([1, 1]);
    // A creation marks the shell's counts stale, read when next shown (not at once).
    await apply(qc, entry({ action: 'created', code: 'NEW' }));
    expect(home.reads()).toBe(1);
    expect(qc.getQueryState(['home'])?.isInvalidated).toBe(true);
    for (const q of [record, list, history, sites, home]) q.stop();
  });

  it('a work order change refreshes its pages, the planner, the linkers and the board', async () => {
    const qc = new QueryClient();
    const keys = [
      ['workorders', 'one', 'code', 'WO-1'],
      ['workorders', 'activityTotals', 'code', 'WO-1', {}],
      ['planning', 'schedule', 'WO-1'],
      ['projectManagement', 'projects', 'record', 'P'],
      ['board', 'day'],
    ];
    const queries = keys.map((k) => shown(qc, k));
    const slots = shown(qc, ['planning', 'slots', {}]);
    await settle();
    await apply(qc, entry({ kind: 'workOrder', code: 'WO-1', action: 'scheduled' }));
    await settle();
    expect(queries.map((q) => q.reads())).toEqual([2, 2, 2, 2, 2]);
    // A slot search is not run again for every change (it is asked for).
    expect(slots.reads()).toBe(1);
  });

  it('a record held by an edit form is marked stale but not read again under it', async () => {
    const qc = new QueryClient();
    const key = ['referentials', 'customer', 'record', 'ACME'];
    const record = shown(qc, key);
    await settle();
    await apply(qc, entry({}), [['customer', 'ACME']]);
    await settle();
    expect(record.reads()).toBe(1);
    expect(qc.getQueryState(key)?.isInvalidated).toBe(true);
    record.stop();
  });

  it('a change of another record of the kind, or a reconnect, does not read again a record an edit form holds', async () => {
    const qc = new QueryClient();
    const key = ['referentials', 'customer', 'record', 'ACME'];
    const record = shown(qc, key);
    const list = shown(qc, ['referentials', 'customer', 'list', {}]);
    await settle();
    const held = () => [['customer', 'ACME'] as const];
    changeApplier(qc, held, 1)(entry({ code: 'BETA' }));
    await settle();
    expect([record.reads(), list.reads()]).toEqual([1, 2]);
    expect(qc.getQueryState(key)?.isInvalidated).toBe(true);
    reloadShown(qc, held());
    await settle();
    expect([record.reads(), list.reads()]).toEqual([1, 3]);
    record.stop();
    list.stop();
  });

  it('a burst of entries reads each shown query once', async () => {
    const qc = new QueryClient();
    const list = shown(qc, ['referentials', 'customer', 'list', {}]);
    await settle();
    const applyAll = changeApplier(qc, () => [], 20);
    for (let i = 0; i < 50; i++) applyAll(entry({ id: String(i), code: `C${i}` }));
    await settle();
    await settle();
    expect(list.reads()).toBe(2);
    list.stop();
  });
});
