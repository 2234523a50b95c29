/**
 * The UI language, without i18next (the boot entry reads it before the app loads, to ask
 * the sign-in page for the same language): the stored choice, else the browser's.
 */
import { isOneOf } from '../../contract/guards.ts';

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'fieldwork.language';

/** The first of the browser's preferred languages that the console speaks, else English. */
export function browserLanguage(preferred: readonly string[] = navigatorLanguages()): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isOneOf(LANGUAGES, base)) return base;
  }
  return 'en';
}

function navigatorLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export function storedLanguage(): Language {
  try {
    const saved = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isOneOf(LANGUAGES, saved)) return saved;
  } catch {
    // storage may be disabled
  }
  return browserLanguage();
}

export function storeLanguage(lng: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // not persisted, still switched
  }
}
