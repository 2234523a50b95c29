/**
 * An entry's changed fields as readable rows: nested objects (an address, a schedule) and
 * lists of coded values (custom fields, used items) are opened down to the values that
 * differ, so a row says "Custom field COLOR: red -> blue", not two JSON blobs.
 */
import type { ChangeField } from '../../../contract/changes.ts';
import { isRecord } from '../../../contract/guards.ts';
import en from './i18n/en.ts';

export interface DiffRow {
  /** The field's path, dotted (`customFields.COLOR`, `address.city`). */
  name: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `[{code, value}]` (custom fields, coded parts) as `{code: value}`, the value being the one
 * other property whatever its name (`textValue`, `numberValue`...); else unchanged.
 */
function byCode(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return {};
  if (!v.every((x) => isRecord(x) && typeof x.code === 'string')) return v;
  return Object.fromEntries(
    (v as Record<string, unknown>[]).map(({ code, ...rest }) => [
      code,
      Object.keys(rest).length === 1 ? Object.values(rest)[0] : rest,
    ]),
  );
}

/** A custom field's value as the API types it (`{textValue: 'x'}`, `{numberValue: 2}`) is its value. */
function typedValue(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0].endsWith('Value') ? v[keys[0]] : v;
}

function open(name: string, before: unknown, after: unknown, out: DiffRow[], depth: number) {
  const b = typedValue(byCode(before));
  const a = typedValue(byCode(after));
  if (depth < 3 && (isRecord(b) || isRecord(a)) && (isRecord(b) || b == null) && (isRecord(a) || a == null)) {
    const bo = (b ?? {}) as Record<string, unknown>;
    const ao = (a ?? {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(bo), ...Object.keys(ao)])];
    const changed = keys.filter((k) => !same(bo[k], ao[k]));
    if (changed.length > 0) {
      for (const k of changed) open(`${name}.${k}`, bo[k] ?? null, ao[k] ?? null, out, depth + 1);
      return;
    }
  }
  // Nothing to say of a field empty before and after (a creation lists every field).
  if (!same(b ?? null, a ?? null))
    out.push({ name, before: isRecord(b) ? before : b, after: isRecord(a) ? after : a });
}

export function diffRows(fields: readonly ChangeField[]): DiffRow[] {
  const out: DiffRow[] = [];
  for (const f of fields) open(f.name, f.before ?? null, f.after ?? null, out, 0);
  return out;
}

export interface FieldLabel {
  /** The i18n key (namespace `history`) and its values. */
  key: string;
  values: Record<string, string>;
  /** What the field belongs to (the contact of `contact.name`), said first. */
  within?: FieldLabel;
}

/** The names the `fields` table labels (French has the same keys: diff.test.ts). */
const LABELLED: ReadonlySet<string> = new Set(Object.keys(en.fields));

/** Prefixes naming a record's parts by their code (`customFields.COLOR`, `activities.A1`). */
const PARTS = ['customFields', 'usedItems', 'activities', 'links', 'flags', 'notes'];

/** Entries written before migration 106 name a created or deleted part's fields by column. */
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const own = (name: string): FieldLabel =>
  LABELLED.has(name) ? { key: `fields.${name}`, values: {} } : { key: 'field.plain', values: { name } };

/**
 * How a field is named: its label when the `fields` table has one; else, in every language,
 * the name as the API gives it (a humanized English name would be wrong in French).
 */
export function fieldLabel(name: string): FieldLabel {
  const [head, ...rest] = name.split('.');
  if (rest.length === 0) return own(head);
  const last = camel(rest[rest.length - 1]);
  // A part's own field (`activities.A1.startTime`); codes may hold dots, so only a known name.
  const field = rest.length > 1 && LABELLED.has(last) ? last : undefined;
  if (PARTS.includes(head)) {
    const part = { key: `field.${head}`, values: { code: (field ? rest.slice(0, -1) : rest).join('.') } };
    return field ? { ...own(field), within: part } : part;
  }
  // A project's phase or task: `jobs.<type>.<code>.<field>`.
  if (head === 'jobs' && rest.length > 2 && (rest[0] === 'phase' || rest[0] === 'task'))
    return {
      ...own(last),
      within: { key: `field.jobs.${rest[0]}`, values: { code: rest.slice(1, -1).join('.') } },
    };
  if (LABELLED.has(head)) return { ...own(rest.join('.')), within: own(head) };
  return own(name);
}

/** A field's label as read, with `t` of the namespace `history`. */
export function fieldText(
  label: FieldLabel,
  t: (key: string, values: Record<string, string>) => string,
): string {
  const text = t(label.key, label.values);
  return label.within ? t('field.nested', { within: fieldText(label.within, t), field: text }) : text;
}
