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
});
