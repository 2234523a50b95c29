/**
 * The rule of one custom-field value (spec: Custom fields): exactly one property, of the
 * type its definition names, with a valid content. Pure, so the server enforces it and the
 * console's editor checks it before sending, from this one place.
 */
import {
  type CustomFieldDefinition,
  type CustomFieldType,
  type CustomFieldValue,
  isValidCalendarDate,
  isValidDateTime,
} from './common.ts';

export { isValidCalendarDate, isValidDateTime };

/** Error keys of the `customFields` i18n namespace (`errors.<key>`). */
export type CustomFieldErrorKey =
  | 'mandatory'
  | 'typeMismatch'
  | 'text'
  | 'date'
  | 'dateTime'
  | 'integer'
  | 'dropDown'
  | 'url'
  | 'gpsBoth'
  | 'latitude'
  | 'longitude';

/** The value property actually present in a value object (first one, in the spec's order). */
export function presentType(value: CustomFieldValue | undefined | null): CustomFieldType | null {
  if (!value || typeof value !== 'object') return null;
  for (const key of Object.keys(value) as CustomFieldType[]) {
    if ((value as Record<string, unknown>)[key] !== undefined) return key;
  }
  return null;
}

/** An absolute http(s) URL with a host. */
export function isValidUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Validates one value against its definition; null when valid (or absent and optional). */
export function validateCustomField(
  def: CustomFieldDefinition,
  value: CustomFieldValue | undefined | null,
): CustomFieldErrorKey | null {
  const present = presentType(value);
  if (present === null) return def.mandatory ? 'mandatory' : null;
  if (present !== def.type) return 'typeMismatch';
  const v = (value as Record<string, unknown>)[def.type];
  switch (def.type) {
    case 'textValue':
      if (typeof v !== 'string') return 'text';
      return def.mandatory && v.trim() === '' ? 'mandatory' : null;
    case 'booleanValue':
      return typeof v === 'boolean' ? null : 'mandatory';
    case 'dateValue':
      return typeof v === 'string' && isValidCalendarDate(v) ? null : 'date';
    case 'dateTimeValue':
      return typeof v === 'string' && isValidDateTime(v) ? null : 'dateTime';
    case 'timeValue':
      return typeof v === 'number' && Number.isInteger(v) ? null : 'integer';
    case 'dropDownValue':
      if (typeof v !== 'string') return 'dropDown';
      return def.values && !def.values.includes(v) ? 'dropDown' : null;
    case 'urlValue':
      return typeof v === 'string' && isValidUrl(v) ? null : 'url';
    case 'gpsValue': {
      const g = (v ?? {}) as { latitude?: unknown; longitude?: unknown };
      const hasLat = typeof g.latitude === 'number' && !Number.isNaN(g.latitude);
      const hasLng = typeof g.longitude === 'number' && !Number.isNaN(g.longitude);
      if (!hasLat || !hasLng) return 'gpsBoth';
      if ((g.latitude as number) < -90 || (g.latitude as number) > 90) return 'latitude';
      if ((g.longitude as number) < -180 || (g.longitude as number) > 180) return 'longitude';
      return null;
    }
  }
  return null;
}
