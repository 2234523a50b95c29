/**
 * Pure helpers of the custom-field editor: reading and writing one value object
 * (spec: Custom fields — exactly one property per value), validating a whole
 * `customFields` object against the entity's definitions, and the small parsers the
 * inputs need (date-time, "lat, lng" paste). No React here, so it is unit-tested in Node.
 */
import type { CustomFieldDefinition, CustomFields, CustomFieldValue } from '../../../contract/common.ts';
import {
  type CustomFieldErrorKey,
  isValidCalendarDate,
  isValidDateTime,
  isValidUrl,
  presentType,
  validateCustomField,
} from '../../../contract/customFields.ts';

export {
  type CustomFieldErrorKey,
  isValidCalendarDate,
  isValidDateTime,
  isValidUrl,
  presentType,
  validateCustomField,
};

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * The server may answer a date-time as `YYYY-MM-DDTHH:MM`, with seconds, or RFC 3339 with a
 * `Z`; the editor works on `YYYY-MM-DDTHH:MM` (spec: General conventions 2).
 */
export function normalizeDateTime(s: string | null | undefined): string | null {
  if (!s) return null;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(s);
  return m ? `${m[1]}T${m[2]}` : s;
}

/** Mantine's DateTimePicker speaks `YYYY-MM-DD HH:mm:ss`. */
export function dateTimeToPicker(s: string | null | undefined): string | null {
  const n = normalizeDateTime(s);
  return n && DATE_TIME.test(n) ? `${n.replace('T', ' ')}:00` : null;
}

export function dateTimeFromPicker(s: string | null): string | null {
  return normalizeDateTime(s);
}

/**
 * Reads "48.8566, 2.3522" (or "48.8566 2.3522", or "48,8566; 2,3522") as latitude then
 * longitude. Returns null when the text is not a pair of numbers.
 */
export function parseLatLng(text: string): { latitude: number; longitude: number } | null {
  const t = text.trim();
  let parts: string[];
  if (t.includes(';')) parts = t.split(';');
  else if (/^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/.test(t)) parts = t.split(',');
  else parts = t.split(/\s+/);
  if (parts.length !== 2) return null;
  const nums = parts.map((p) => p.trim().replace(',', '.'));
  if (!nums.every((p) => /^-?\d+(\.\d+)?$/.test(p))) return null;
  const [latitude, longitude] = nums.map(Number);
  return { latitude, longitude };
}

/**
 * The checks a GPS pair gets while it is typed (i18n keys of the `customFields` namespace):
 * each coordinate in its range at once; the pair complete (both or none) once the user
 * has left it (`left`).
 */
export function gpsErrors(
  latitude: number | undefined,
  longitude: number | undefined,
  left: boolean,
): { latitude?: string; longitude?: string; pair?: string } {
  const out: { latitude?: string; longitude?: string; pair?: string } = {};
  if (latitude !== undefined && !(Number.isFinite(latitude) && latitude >= -90 && latitude <= 90))
    out.latitude = 'errors.latitude';
  if (longitude !== undefined && !(Number.isFinite(longitude) && longitude >= -180 && longitude <= 180))
    out.longitude = 'errors.longitude';
  if (left && (latitude === undefined) !== (longitude === undefined)) out.pair = 'errors.gpsBoth';
  return out;
}

/**
 * Validates a whole `customFields` object. Codes that no definition names are kept and
 * never reported here: the editor shows them read-only and the server is the judge.
 */
export function validateCustomFields(
  defs: readonly CustomFieldDefinition[],
  fields: CustomFields | null | undefined,
): Record<string, CustomFieldErrorKey> {
  const out: Record<string, CustomFieldErrorKey> = {};
  for (const def of defs) {
    const err = validateCustomField(def, fields?.[def.code]);
    if (err) out[def.code] = err;
  }
  return out;
}

/** Writes one value (or removes the code when `next` is undefined), keeping every other code. */
export function setCustomField(
  fields: CustomFields | null | undefined,
  code: string,
  next: CustomFieldValue | undefined,
): CustomFields {
  const copy: CustomFields = { ...(fields ?? {}) };
  if (next === undefined) delete copy[code];
  else copy[code] = next;
  return copy;
}

/** Codes present in the value that no definition describes (shown read-only, never dropped). */
export function unknownCodes(
  defs: readonly CustomFieldDefinition[],
  fields: CustomFields | null | undefined,
): string[] {
  const known = new Set(defs.map((d) => d.code));
  return Object.keys(fields ?? {}).filter((c) => !known.has(c));
}

/** Initial value for a new record: mandatory booleans start at false (a switch has no "unset"). */
export function initialCustomFields(
  defs: readonly CustomFieldDefinition[],
  fields?: CustomFields | null,
): CustomFields {
  const out: CustomFields = { ...(fields ?? {}) };
  for (const def of defs) {
    if (def.type === 'booleanValue' && def.mandatory && presentType(out[def.code]) === null) {
      out[def.code] = { booleanValue: false };
    }
  }
  return out;
}

/** Human rendering of any value object, for read-only display (detail pages, unknown codes). */
export function formatCustomValue(
  value: CustomFieldValue | undefined | null,
  yes = 'Yes',
  no = 'No',
): string {
  const type = presentType(value);
  if (!type || !value) return '';
  const v = value[type];
  if (type === 'booleanValue') return v ? yes : no;
  if (type === 'gpsValue') {
    const g = v as { latitude: number; longitude: number };
    return `${g.latitude}, ${g.longitude}`;
  }
  if (type === 'dateTimeValue') return (normalizeDateTime(v as string) ?? '').replace('T', ' ');
  return String(v);
}
