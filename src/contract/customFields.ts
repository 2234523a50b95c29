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
  // The value as sent (the console checks what the user typed): each type's content checked.
  switch (def.type) {
    case 'textValue': {
      const v = value?.textValue;
      if (typeof v !== 'string') return 'text';
      return def.mandatory && v.trim() === '' ? 'mandatory' : null;
    }
    case 'booleanValue':
      return typeof value?.booleanValue === 'boolean' ? null : 'mandatory';
    case 'dateValue': {
      const v = value?.dateValue;
      return typeof v === 'string' && isValidCalendarDate(v) ? null : 'date';
    }
    case 'dateTimeValue': {
      const v = value?.dateTimeValue;
      return typeof v === 'string' && isValidDateTime(v) ? null : 'dateTime';
    }
    case 'timeValue': {
      const v = value?.timeValue;
      return typeof v === 'number' && Number.isInteger(v) ? null : 'integer';
    }
    case 'dropDownValue': {
      const v = value?.dropDownValue;
      if (typeof v !== 'string') return 'dropDown';
      return def.values && !def.values.includes(v) ? 'dropDown' : null;
    }
    case 'urlValue': {
      const v = value?.urlValue;
      return typeof v === 'string' && isValidUrl(v) ? null : 'url';
    }
    case 'gpsValue': {
      const lat = value?.gpsValue?.latitude;
      const lng = value?.gpsValue?.longitude;
      if (typeof lat !== 'number' || Number.isNaN(lat) || typeof lng !== 'number' || Number.isNaN(lng))
        return 'gpsBoth';
      if (lat < -90 || lat > 90) return 'latitude';
      if (lng < -180 || lng > 180) return 'longitude';
      return null;
    }
  }
  return null;
}
