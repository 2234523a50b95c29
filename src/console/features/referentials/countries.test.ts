import { describe, expect, it } from 'vitest';
import { countries, countryName } from './countries.ts';

describe('countries', () => {
  it('lists the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    const list = countries('en');
    expect(list).toHaveLength(249);
    const codes = new Set(list.map((c) => c.code));
    for (const c of ['FR', 'DE', 'GB', 'US', 'CW', 'SS', 'AX']) expect(codes.has(c)).toBe(true);
    for (const c of ['UK', 'EU', 'UN', 'XK', 'SU', 'YU', 'ZZ', 'AA']) expect(codes.has(c)).toBe(false);
    expect(list.every((c) => /^[A-Z]{2}$/.test(c.code))).toBe(true);
  });
  it('names countries in the UI language', () => {
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('DE', 'fr')).toBe('Allemagne');
    expect(countryName('QQ', 'fr')).toBe('QQ');
  });
});
