import { describe, expect, it } from 'vitest';
import { parseStrictDate } from './dates.tsx';

describe('parseStrictDate (a typed date is a real date or nothing)', () => {
  it('takes YYYY-MM-DD dates that exist', () => {
    expect(parseStrictDate('2019-02-28')).toBe('2019-02-28');
    expect(parseStrictDate(' 2020-02-29 ')).toBe('2020-02-29');
  });
  it('refuses impossible dates instead of moving them, and other formats', () => {
    for (const s of [
      '2019-02-30',
      '2019-02-29',
      '2021-13-01',
      '2021-04-31',
      '2021-4-1',
      '01/02/2021',
      '2021-02',
      '',
    ])
      expect(parseStrictDate(s), s).toBeNull();
  });
});
