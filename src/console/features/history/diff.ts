/**
 * An entry's changed fields as readable rows: nested objects (an address, a schedule) and
 * lists of coded values (custom fields, used items) are opened down to the values that
 * differ, so a row says "Custom field COLOR: red -> blue", not two JSON blobs.
 */
import type { ChangeField } from '../../../contract/changes.ts';
import { isRecord } from '../../../contract/guards.ts';

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

/** The i18n key and values naming a field: known prefixes get a label, the rest shows as named. */
export function fieldLabel(name: string): { key: string; values: Record<string, string> } {
  const [head, ...rest] = name.split('.');
  const tail = rest.join('.');
  if (tail && ['customFields', 'usedItems', 'activities', 'links', 'flags', 'notes'].includes(head))
    return { key: `field.${head}`, values: { code: tail } };
  return { key: 'field.plain', values: { name } };
}
