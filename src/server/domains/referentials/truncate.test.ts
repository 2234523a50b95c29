import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateDecimals } from '../../../contract/referentials.ts';

describe('truncateDecimals (site geolocation: precision beyond 16 decimal places is truncated)', () => {
  it('truncates, never rounds', () => {
    expect(truncateDecimals(0.12345678901234566)).toBe(0.1234567890123456);
    expect(truncateDecimals(-0.12345678901234566)).toBe(-0.1234567890123456);
    expect(truncateDecimals(1.23456789e-17)).toBe(0);
    expect(truncateDecimals(9.87654321e-16)).toBe(9e-16);
    expect(truncateDecimals(45.5)).toBe(45.5);
    expect(truncateDecimals(-180)).toBe(-180);
  });

  it('keeps at most 16 decimals, moves towards zero by less than 1e-16, and is idempotent', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (x) => {
        const t = truncateDecimals(x);
        expect(Math.abs(t)).toBeLessThanOrEqual(Math.abs(x));
        expect(Math.abs(x - t)).toBeLessThan(1e-16 + Number.EPSILON * Math.abs(x));
        expect(truncateDecimals(t) === t).toBe(true);
        // Some decimal with 16 places reads back as t.
        expect(Number(t.toFixed(16)) === t).toBe(true);
      }),
    );
  });
});
