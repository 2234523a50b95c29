import { describe, expect, it } from 'vitest';
import { readAll, withRateLimitRetry } from './pages.ts';

describe('rate limit', () => {
  const tooMany = () => Object.assign(new Error('HTTP 429'), { status: 429 });

  it('waits and retries a call the service refused with 429, then gives up', async () => {
    const waits: number[] = [];
    let calls = 0;
    const ok = await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw tooMany();
        return 'done';
      },
      { sleep: async (ms) => void waits.push(ms), delays: [1, 2, 3] },
    );
    expect(ok).toBe('done');
    expect(waits).toEqual([1, 2]);
    await expect(
      withRateLimitRetry(
        async () => {
          throw tooMany();
        },
        { sleep: async () => {}, delays: [1] },
      ),
    ).rejects.toMatchObject({ status: 429 });
    await expect(
      withRateLimitRetry(
        async () => {
          throw Object.assign(new Error('bad'), { status: 400 });
        },
        { sleep: async () => {}, delays: [1] },
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('walks every page of a list through a 429', async () => {
    let first = true;
    const pages: Record<string, { continuationToken: string | null; data: number[] }> = {
      start: { continuationToken: 't1', data: [1, 2] },
      t1: { continuationToken: null, data: [3] },
    };
    const counts: number[] = [];
    const all = await readAll(
      async (token) => {
        if (token === 't1' && first) {
          first = false;
          throw tooMany();
        }
        return pages[token ?? 'start'];
      },
      { sleep: async () => {}, delays: [1], onPage: (n) => counts.push(n) },
    );
    expect(all).toEqual([1, 2, 3]);
    expect(counts).toEqual([2, 3]);
  });

  it('waits as long as the Retry-After of the 429 says', async () => {
    const waits: number[] = [];
    let calls = 0;
    await withRateLimitRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw Object.assign(tooMany(), { retryAfter: 17 });
        if (calls === 2) throw Object.assign(tooMany(), { retryAfter: null });
        return 'done';
      },
      { sleep: async (ms) => void waits.push(ms), delays: [5, 6] },
    );
    expect(waits).toEqual([17_000, 6]);
  });

  it('goes on from the rows loaded already: their pages are not read again', async () => {
    const asked: (string | undefined)[] = [];
    const all = await readAll(
      async (token) => {
        asked.push(token);
        return token === 't1'
          ? { continuationToken: 't2', data: [3] }
          : { continuationToken: null, data: [4] };
      },
      { from: { rows: [1, 2], token: 't1' } },
    );
    expect(all).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual(['t1', 't2']);
  });
});
