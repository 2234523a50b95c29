import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../../platform/time.ts';
import { utcText } from './utcText.ts';

describe('utcText (the slot bounds as the API writes them)', () => {
  it('writes what rfc3339 writes, for any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (ms) => {
        expect(utcText(ms)).toBe(rfc3339(new Date(ms)));
      }),
      { numRuns: 5000 },
    );
  });

  it('at the edges: the epoch, before it, the last four-digit year and after it, and within a day', () => {
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    for (const ms of [0, -1, 999, 1000, last, last + 1, Date.parse('2030-01-14T23:59:59.999Z')])
      expect(utcText(ms)).toBe(rfc3339(new Date(ms)));
    expect(utcText(Date.parse('2030-01-14T07:30:00Z'))).toBe('2030-01-14T07:30:00Z');
  });
});
