/**
 * The console's one i18n setup. Namespaces: `common` (the shell, here), and one per
 * feature folder found by file name: `features/<name>/i18n/{en,fr}.ts` registers the
 * namespace `<name>`, `components/<name>/i18n/{en,fr}.ts` likewise (e.g. customFields).
 * A feature adds its strings by adding those files; nothing to edit here. A missing
 * French file falls back to English.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.ts';
import fr from './fr.ts';

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'fieldwork.language';

type Bundle = Record<string, unknown>;
const modules = import.meta.glob<{ default: Bundle }>(
  ['../features/*/i18n/{en,fr}.ts', '../components/*/i18n/{en,fr}.ts'],
  { eager: true },
);

function resources() {
  const out: Record<Language, Record<string, Bundle>> = { en: { common: en }, fr: { common: fr } };
  for (const [path, mod] of Object.entries(modules)) {
    const m = /\/(features|components)\/([^/]+)\/i18n\/(en|fr)\.ts$/.exec(path);
    if (m) out[m[3] as Language][m[2]] = mod.default;
  }
  return out;
}

export function storedLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'fr') return saved;
  } catch {
    // storage may be disabled
  }
  return typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export async function setLanguage(lng: Language) {
  try {
    localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // not persisted, still switched
  }
  await i18n.changeLanguage(lng);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

export const i18nReady = i18n.use(initReactI18next).init({
  resources: resources(),
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
