/**
 * ISO 3166-1 alpha-2 country codes with names in the UI language, from the browser's
 * `Intl.DisplayNames` over AA..ZZ: codes the runtime cannot name are not assigned, deprecated
 * aliases (UK, SU, YU...) canonicalise to another region and are skipped, and the regions
 * CLDR knows that ISO 3166-1 does not assign (EU, UN, XK, AC...) are listed below.
 */
const NOT_ISO_3166_1 = new Set([
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'EU',
  'EZ',
  'IC',
  'TA',
  'UN',
  'QO',
  'XA',
  'XB',
  'XK',
  'ZZ',
]);

export interface Country {
  code: string;
  name: string;
}

const cache = new Map<string, Country[]>();

function isCanonicalRegion(code: string): boolean {
  try {
    return Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
  } catch {
    return false;
  }
}

/** All assigned codes, sorted by their localized name. */
export function countries(language: string): Country[] {
  const hit = cache.get(language);
  if (hit) return hit;
  let names: Intl.DisplayNames;
  try {
    names = new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'none' });
  } catch {
    names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  }
  const out: Country[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_ISO_3166_1.has(code)) continue;
      const name = names.of(code);
      if (!name || name === code || !isCanonicalRegion(code)) continue;
      out.push({ code, name });
    }
  }
  out.sort((x, y) => x.name.localeCompare(y.name, language));
  cache.set(language, out);
  return out;
}

/** The localized name of one code, or the code itself when the runtime does not know it. */
export function countryName(code: string | null | undefined, language: string): string {
  if (!code) return '';
  return countries(language).find((c) => c.code === code)?.name ?? code;
}
