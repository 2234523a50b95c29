import { describe, expect, it } from 'vitest';
import { browserLanguage } from './language.ts';

describe('browserLanguage (the console and the sign-in page follow the browser)', () => {
  it('takes the first preferred language the console speaks', () => {
    expect(browserLanguage(['fr-FR', 'en'])).toBe('fr');
    expect(browserLanguage(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(browserLanguage(['en-GB', 'fr'])).toBe('en');
  });
  it('falls back to English', () => {
    expect(browserLanguage(['de', 'it'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});
