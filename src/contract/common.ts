import { z } from 'zod';

/**
 * Characters a code may hold: ASCII letters and digits, `-`, `_` and `.`. No space, no
 * punctuation that URLs, CSV files or the `code:` path segments would need to escape, and
 * no letter outside ASCII: case folding stays the plain A-Z/a-z one, so that no two
 * spellings meet by Unicode rules (`straße` and `STRASSE`, `ı` and `I`). The single source
 * of the rule: the service's schemas and the console's forms (codeRule.ts) use it.
 */
export const CODE_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const CODE_CHARACTERS = 'ASCII letters, digits, "-", "_" and "."';

/**
 * The stored form of a code: ASCII letters uppercased, nothing else touched (a string that
 * breaks CODE_PATTERN keeps its non-ASCII letters, so it can never equal a valid code).
 */
export const foldCode = (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase());

/** Codes are case-insensitive and stored uppercase (spec: General conventions 3). */
export const Code = (max = 10000) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(CODE_PATTERN, `only ${CODE_CHARACTERS}`)
    .transform(foldCode)
    .meta({ description: `1..${max} characters: ${CODE_CHARACTERS}; case-insensitive, stored uppercase` });

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** `YYYY-MM-DDTHH:MM`, seconds optional (gaps.md: accepted on input). */
export const DATE_TIME_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z)?$/;

/** A real calendar date `YYYY-MM-DD` (2019-02-30 is refused, not moved to March). */
export function isValidCalendarDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A real date-time `YYYY-MM-DDTHH:MM`, seconds optional, in UTC. */
export function isValidDateTime(s: string): boolean {
  if (!DATE_TIME_INPUT.test(s)) return false;
  const [date, time] = s.replace(/Z$/, '').split('T');
  const [h, m, sec = 0] = time.split(':').map(Number);
  return isValidCalendarDate(date) && h < 24 && m < 60 && sec < 60;
}

/** A date-time input (spec: `YYYY-MM-DDTHH:MM`, UTC; seconds and a final `Z` accepted), as a Date. */
export const DateTimeInput = z
  .string()
  .refine(isValidDateTime, 'a UTC date-time YYYY-MM-DDTHH:MM (seconds optional) that exists')
  .transform((s) => new Date(`${s.replace(/Z$/, '')}Z`))
  // A pattern, not `format: date-time`: RFC 3339 wants seconds and an offset, which the
  // spec's `YYYY-MM-DDTHH:MM` does not have (a validating client would refuse it).
  .meta({
    description: 'UTC date-time `YYYY-MM-DDTHH:MM`, seconds optional',
    pattern: DATE_TIME_INPUT.source,
  });

/** A date input `YYYY-MM-DD` that exists. */
export const DateInput = z
  .string()
  .refine(isValidCalendarDate, 'a date YYYY-MM-DD that exists')
  .meta({ description: 'Date `YYYY-MM-DD`', format: 'date' });

/** One custom field value: exactly one property of the defined type (spec: Custom fields). */
export const CustomFieldType = z.enum([
  'textValue',
  'booleanValue',
  'dateValue',
  'dateTimeValue',
  'timeValue',
  'dropDownValue',
  'urlValue',
  'gpsValue',
]);
export type CustomFieldType = z.infer<typeof CustomFieldType>;

export const GpsValue = z.strictObject({ longitude: z.number(), latitude: z.number() });

export const CustomFieldValue = z
  .strictObject({
    textValue: z.string().optional(),
    booleanValue: z.boolean().optional(),
    dateValue: z.string().optional(),
    dateTimeValue: z.string().optional(),
    timeValue: z.number().int().optional(),
    dropDownValue: z.string().optional(),
    urlValue: z.string().optional(),
    gpsValue: GpsValue.optional(),
  })
  .meta({ id: 'CustomFieldValue' });
export type CustomFieldValue = z.infer<typeof CustomFieldValue>;

export const CustomFields = z.record(z.string(), CustomFieldValue).meta({ id: 'CustomFields' });
export type CustomFields = z.infer<typeof CustomFields>;

export const CustomFieldEntity = z.enum(['customer', 'site', 'asset', 'item']);
export type CustomFieldEntity = z.infer<typeof CustomFieldEntity>;

export const CustomFieldDefinition = z
  .object({
    entity: CustomFieldEntity,
    code: z.string(),
    label: z.string().nullable(),
    type: CustomFieldType,
    mandatory: z.boolean(),
    values: z.array(z.string()).nullable(),
  })
  .meta({ id: 'CustomFieldDefinition' });
export type CustomFieldDefinition = z.infer<typeof CustomFieldDefinition>;

/**
 * An integer query parameter from `min` to `max`: `integer` with its bounds in the OpenAPI
 * document (what a generated client sends), read here from the query string's digits (a
 * query string holds text). Anything but digits is refused as the field's `.invalid`.
 */
export const QueryInteger = (min: number, max: number) => {
  const message = `an integer from ${min} to ${max}`;
  return z.preprocess(
    (v: number | string) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
};

/** A boolean query parameter: `boolean` in the OpenAPI document, `true` or `false` in the query string. */
export const QueryBoolean = () =>
  z.preprocess(
    (v: boolean | string) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: 'true or false' }),
  );

/** Paginated list (spec: Pagination). */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ continuationToken: z.string().nullable(), data: z.array(item) });
export type Page<T> = { continuationToken: string | null; data: T[] };

export const PageQuery = z.object({ continuationToken: z.string().optional() });

/**
 * A required text of length 1..max. An empty string counts as missing and answers
 * `<field>.mandatory`, the only code the spec names for missing names and cities.
 */
export const requiredText = (max: number) =>
  z
    .string()
    .check((ctx) => {
      if (ctx.value === '')
        ctx.issues.push({
          code: 'invalid_type',
          expected: 'string',
          input: undefined,
          message: 'Required (empty)',
          continue: false,
        });
    })
    .min(1)
    .max(max);
