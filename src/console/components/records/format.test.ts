import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './format.ts';

describe('formatTimestamp (one format for every lastUpdate)', () => {
  it('shows the referentials and the catalog forms the same way, in UTC', () => {
    const a = formatTimestamp('2024-03-05 14:07:09 UTC', 'en');
    const b = formatTimestamp('2024-03-05T14:07:09Z', 'en');
    expect(a).toBe(b);
    expect(a).toMatch(/Mar 5, 2024.*2:07.*PM UTC$/);
    expect(formatTimestamp('2024-03-05T14:07:09.123Z', 'fr')).toMatch(/5 mars 2024.*14:07 UTC$/);
  });
  it('keeps an unreadable value as it is and nothing for no value', () => {
    expect(formatTimestamp('yesterday', 'en')).toBe('yesterday');
    expect(formatTimestamp(null, 'en')).toBeNull();
    expect(formatTimestamp('', 'en')).toBeNull();
  });
});
