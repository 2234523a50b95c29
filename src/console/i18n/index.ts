/**
 * The console's one i18n setup. Namespaces:
 * - `common`: the shell's strings (./en.ts, ./fr.ts), loaded with the shell;
 * - one per feature, named after the feature id: its `shell` strings (navigation, Home,
 *   palette) load with the shell, the rest of `features/<id>/i18n/<lng>.ts` with the
 *   feature's first page (`loadNamespaces`, called by the routes' lazy pages);
 * - one per shared component folder with strings (`components/<name>/i18n/<lng>.ts`, e.g.
 *   `customFields`), loaded by the features that declare they use it.
 * Only the current language is loaded; switching language loads the other one first.
 * Every namespace has the same keys in each language (i18n.test.ts checks it).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isOneOf } from '../../contract/guards.ts';
import type { Bundle, BundleLoader, FeatureI18n } from '../app/feature.ts';
import en from './en.ts';
import fr from './fr.ts';
import { LANGUAGES, type Language, storedLanguage, storeLanguage } from './language.ts';

export { LANGUAGES, type Language, storedLanguage };

/** Lazily loaded bundles: namespace -> language -> loader. */
const loaders = new Map<string, Partial<Record<Language, BundleLoader>>>();
/** Namespaces whose full bundle is loaded, per language. */
const loaded = new Map<Language, Set<string>>(LANGUAGES.map((l) => [l, new Set(['common'])]));
const inFlight = new Map<string, Promise<void>>();

const shared = import.meta.glob<{ default: Bundle }>('../components/*/i18n/{en,fr}.ts');
for (const [path, load] of Object.entries(shared)) {
  const m = /\/components\/([^/]+)\/i18n\/(en|fr)\.ts$/.exec(path);
  if (!m) continue;
  const lng = m[2];
  if (!isOneOf(LANGUAGES, lng)) continue;
  loaders.set(m[1], { ...loaders.get(m[1]), [lng]: load });
}

const currentLanguage = (): Language => {
  const lng = i18n.resolvedLanguage;
  return isOneOf(LANGUAGES, lng) ? lng : storedLanguage();
};

/** Loads the full bundles of these namespaces in `lng` (the current language by default). */
export async function loadNamespaces(namespaces: readonly string[], lng: Language = currentLanguage()) {
  await Promise.all(
    namespaces.map((ns) => {
      if (loaded.get(lng)?.has(ns)) return undefined;
      const load = loaders.get(ns)?.[lng];
      if (!load) return undefined;
      const key = `${lng}:${ns}`;
      let p = inFlight.get(key);
      if (!p) {
        p = load()
          .then((mod) => {
            i18n.addResourceBundle(lng, ns, mod.default, true, true);
            loaded.get(lng)?.add(ns);
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, p);
      }
      return p;
    }),
  );
}

/** Switches language, after loading the namespaces already in use in the new one. */
export async function setLanguage(lng: Language) {
  storeLanguage(lng);
  const inUse = [...(loaded.get(currentLanguage()) ?? [])];
  await loadNamespaces(inUse, lng);
  await i18n.changeLanguage(lng);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

/** Starts i18n with the shell's strings and the features' shell strings; resolves when ready. */
export function initI18n(features: readonly { id: string; i18n: FeatureI18n }[]) {
  const resources: Record<Language, Record<string, Bundle>> = { en: { common: en }, fr: { common: fr } };
  for (const f of features) {
    loaders.set(f.id, f.i18n.load);
    for (const lng of LANGUAGES) resources[lng][f.id] = f.i18n.shell[lng];
  }
  // Shared namespaces start empty (their bundle loads with the first page that uses them).
  for (const ns of loaders.keys()) for (const lng of LANGUAGES) resources[lng][ns] ??= {};
  return i18n.use(initReactI18next).init({
    resources,
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    defaultNS: 'common',
    ns: ['common'],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

export { i18n };
