import { describe, expect, it } from 'vitest';
import { rfc3339 } from './time.ts';

describe('rfc3339', () => {
  it('answers UTC with a Z and no fraction, for a Date or a text, beyond year 9999 too', () => {
    expect(rfc3339(new Date('2026-11-25T11:40:43.123Z'))).toBe('2026-11-25T11:40:43Z');
    expect(rfc3339('2026-11-25T12:40:43.999+01:00')).toBe('2026-11-25T11:40:43Z');
    expect(rfc3339(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01T00:00:00Z');
    expect(() => rfc3339('not a date')).toThrow(RangeError);
  });
});
