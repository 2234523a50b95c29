/**
 * Service error codes of the catalog -> form fields. The platform answers
 * `<prefix>.<field lowercased>.mandatory|invalid` for a field's constraint
 * (`businessorganization.item.serialnumberpattern.invalid`), and
 * `<prefix>.custom.field.mandatory|unknown|invalid` with a message naming the custom field.
 * A code not found here is shown in an Alert with the errorReference.
 */
import type { TFunction } from 'i18next';
import { ITEM_BODY_FIELDS } from './model.ts';

export const ITEM_PREFIX = 'businessorganization.item.';
export const SKILL_PREFIX = 'staff.skill.';

const ITEM_FIELDS = new Map<string, string>([
  ...ITEM_BODY_FIELDS.map((f) => [f.toLowerCase(), f] as [string, string]),
  ['itemcode', 'code'],
  ['code', 'code'],
]);
const SKILL_FIELDS = new Map<string, string>([
  ['name', 'name'],
  ['description', 'description'],
  ['skillcode', 'code'],
  ['code', 'code'],
]);

/** The custom-field code a message names (`Custom field COLOR must hold…`), if any. */
export function customFieldCodeOf(message: string | undefined): string | null {
  const m = /custom field ([A-Za-z0-9_.-]+)/i.exec(message ?? '');
  return m ? m[1].toUpperCase() : null;
}

function fieldFor(prefix: string, fields: Map<string, string>, error: { code: string; message?: string }) {
  if (!error.code.startsWith(prefix)) return null;
  const suffix = error.code.slice(prefix.length);
  if (suffix.startsWith('custom.field.')) {
    if (prefix !== ITEM_PREFIX) return null;
    // `unknown` is about a code the form shows read-only: the whole editor carries it.
    const code = suffix === 'custom.field.unknown' ? null : customFieldCodeOf(error.message);
    return code ? `customFields.${code}` : 'customFields.root';
  }
  const m = /^(.+)\.(mandatory|invalid)$/.exec(suffix);
  if (!m) return null;
  return fields.get(m[1]) ?? null;
}

/** The item form's field path a service error belongs to, or null. */
export function itemFieldForError(error: { code: string; message?: string }): string | null {
  return fieldFor(ITEM_PREFIX, ITEM_FIELDS, error);
}

/** The skill form's field path a service error belongs to, or null. */
export function skillFieldForError(error: { code: string; message?: string }): string | null {
  return fieldFor(SKILL_PREFIX, SKILL_FIELDS, error);
}

/** i18n key (namespace `catalog`) explaining a service code, with the server's message as default. */
export function serverErrorKey(code: string): string {
  return `catalog:serverErrors.${code.replace(/\./g, '_')}`;
}

/** The translated explanation of a service error, the service's own message by default. */
export function serviceErrorText(t: TFunction, err: { code: string; message: string }): string {
  return t(serverErrorKey(err.code), { defaultValue: err.message });
}
