import { describe, expect, it } from 'vitest';
import type { Db } from '../db/index.ts';
import { writeTransaction } from './transactions.ts';

/** A database whose transactions run `fn` as they are: enough to count the attempts. */
const fakeDb = {
  transaction: () => ({ execute: (fn: (trx: Db) => unknown) => fn({} as Db) }),
} as unknown as Db;
const failing = (codes: string[]) => {
  let attempts = 0;
  const fn = async () => {
    const code = codes[attempts++];
    if (code) throw Object.assign(new Error(code), { code });
    return 'written';
  };
  return { fn, attempts: () => attempts };
};

describe('writeTransaction', () => {
  it('runs again a transaction PostgreSQL aborted to break a deadlock (40P01)', async () => {
    const run = failing(['40P01', '40P01']);
    expect(await writeTransaction(fakeDb, run.fn)).toBe('written');
    expect(run.attempts()).toBe(3);
  });

  it('gives up after three deadlocks, and never retries another error', async () => {
    const deadlocks = failing(['40P01', '40P01', '40P01']);
    await expect(writeTransaction(fakeDb, deadlocks.fn)).rejects.toMatchObject({ code: '40P01' });
    expect(deadlocks.attempts()).toBe(3);
    const other = failing(['23505']);
    await expect(writeTransaction(fakeDb, other.fn)).rejects.toMatchObject({ code: '23505' });
    expect(other.attempts()).toBe(1);
  });
});
