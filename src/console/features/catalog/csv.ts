/**
 * CSV of items, both ways. Pure (papaparse and zod only), so it is unit-tested in Node.
 *
 * Columns are matched by header (case, spaces and underscores ignored):
 * itemCode, name, category, description, unit, unitPrice, vatRates (`;`-separated),
 * reference, barCode, manufacturer, fixedPrice, serialNumberPattern, active.
 * `itemCode` and `name` are required headers; other columns are optional, and a column
 * absent from the file leaves the stored value of an existing item as it is (see
 * `mergeForImport`). An empty cell clears the field (sent as null).
 *
 * Errors are returned as i18n keys of the `catalog` namespace with their parameters, so the
 * preview shows them in the UI language.
 */
import Papa from 'papaparse';
import type { z } from 'zod';
import { ITEM_BODY_FIELDS, type Item, ItemBody, ItemCode, itemToBody } from './model.ts';

export const ITEM_CSV_COLUMNS = ['itemCode', ...ITEM_BODY_FIELDS] as const;
export type ItemCsvColumn = (typeof ITEM_CSV_COLUMNS)[number];
export const REQUIRED_CSV_COLUMNS: readonly ItemCsvColumn[] = ['itemCode', 'name'];

export interface CsvIssue {
  /** Column the issue is about ('' for the whole row). */
  field: string;
  /** i18n key, e.g. `catalog:validation.required`. */
  key: string;
  params?: Record<string, string | number>;
}

export interface CsvRow {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  code: string;
  /** Values of the file's columns only, converted; null when the row has errors. */
  body: Partial<ItemBody> | null;
  /** Cells as read, by column. */
  cells: Partial<Record<ItemCsvColumn, string>>;
  errors: CsvIssue[];
}

export interface ItemsCsv {
  /** Known columns found in the header, in file order. */
  columns: ItemCsvColumn[];
  /** Headers that name no known column (ignored). */
  ignored: string[];
  /** Problems with the file itself (missing required headers, unreadable file). */
  fileErrors: CsvIssue[];
  rows: CsvRow[];
}

const norm = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .replace(/[\s_-]/g, '')
    .toLowerCase();
const BY_NORM = new Map<string, ItemCsvColumn>(ITEM_CSV_COLUMNS.map((c) => [norm(c), c]));

/** The known column a header names, or null. */
export function columnForHeader(header: string): ItemCsvColumn | null {
  return BY_NORM.get(norm(header)) ?? null;
}

/** Spreadsheet formula guard written by the export and removed by the import. */
const FORMULA_START = /^[=+\-@\t\r]/;
export function escapeCell(v: string): string {
  return FORMULA_START.test(v) ? `'${v}` : v;
}
export function unescapeCell(v: string): string {
  return v.startsWith("'") && FORMULA_START.test(v.slice(1)) ? v.slice(1) : v;
}

const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
export function parseNumberCell(v: string): number | null | 'invalid' {
  const s = v.trim();
  if (s === '') return null;
  if (!NUMBER.test(s)) return 'invalid';
  return Number(s.replace(',', '.'));
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'oui', 'vrai']);
const FALSE = new Set(['false', 'no', 'n', '0', 'non', 'faux']);
export function parseBooleanCell(v: string): boolean | null | 'invalid' {
  const s = v.trim().toLowerCase();
  if (s === '') return null;
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return 'invalid';
}

/** `20; 5.5` -> [20, 5.5]; empty -> null; the index of the first bad part otherwise. */
export function parseVatRatesCell(v: string): number[] | null | { invalid: string } {
  const s = v.trim();
  if (s === '') return null;
  const out: number[] = [];
  for (const part of s.split(';')) {
    const p = part.trim();
    if (p === '') continue;
    const n = parseNumberCell(p.replace(/%$/, ''));
    if (n === 'invalid' || n === null) return { invalid: p };
    out.push(n);
  }
  return out;
}

/** A zod issue of the body schema as an i18n key. */
export function issueKey(issue: z.core.$ZodIssue): Pick<CsvIssue, 'key' | 'params'> {
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return { key: 'catalog:validation.required' };
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1)
    return { key: 'catalog:validation.required' };
  if (issue.code === 'too_big' && issue.origin === 'string')
    return { key: 'catalog:validation.maxLength', params: { max: Number(issue.maximum) } };
  if (issue.code === 'too_big' && issue.origin === 'array')
    return { key: 'catalog:validation.maxItems', params: { max: Number(issue.maximum) } };
  if (issue.code === 'too_small')
    return { key: 'catalog:validation.min', params: { value: Number(issue.minimum) } };
  if (issue.code === 'too_big')
    return { key: 'catalog:validation.max', params: { value: Number(issue.maximum) } };
  if (issue.code === 'custom') {
    const field = issue.path[issue.path.length - 1];
    if (field === 'serialNumberPattern') return { key: 'catalog:validation.pattern' };
    if (field === 'unitPrice') return { key: 'catalog:validation.cents' };
    if (issue.message.startsWith('catalog:')) return { key: issue.message };
  }
  return { key: 'catalog:validation.invalid' };
}

/** Converts the cells of one row; conversion errors are pushed to `errors`. */
function convertRow(
  cells: Partial<Record<ItemCsvColumn, string>>,
  columns: readonly ItemCsvColumn[],
  errors: CsvIssue[],
): Partial<ItemBody> {
  const body: Record<string, unknown> = {};
  for (const col of columns) {
    if (col === 'itemCode') continue;
    const raw = cells[col] ?? '';
    switch (col) {
      case 'unitPrice': {
        const n = parseNumberCell(raw);
        if (n === 'invalid')
          errors.push({ field: col, key: 'catalog:csv.errors.number', params: { value: raw } });
        else body[col] = n;
        break;
      }
      case 'vatRates': {
        const r = parseVatRatesCell(raw);
        if (r && !Array.isArray(r))
          errors.push({ field: col, key: 'catalog:csv.errors.vatRate', params: { value: r.invalid } });
        else body[col] = r;
        break;
      }
      case 'fixedPrice':
      case 'active': {
        const b = parseBooleanCell(raw);
        if (b === 'invalid')
          errors.push({ field: col, key: 'catalog:csv.errors.boolean', params: { value: raw } });
        else body[col] = b;
        break;
      }
      case 'name':
        body[col] = raw.trim();
        break;
      default:
        body[col] = raw === '' ? null : raw;
    }
  }
  return body as Partial<ItemBody>;
}

/**
 * Reads a CSV file of items and validates every row (contract schema, code present,
 * duplicate codes in the file) before anything is written.
 */
export function parseItemsCsv(text: string): ItemsCsv {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const headers = parsed.meta.fields ?? [];
  const columns: ItemCsvColumn[] = [];
  const ignored: string[] = [];
  const headerOf = new Map<ItemCsvColumn, string>();
  for (const h of headers) {
    const col = columnForHeader(h);
    if (col && !headerOf.has(col)) {
      headerOf.set(col, h);
      columns.push(col);
    } else if (h !== '') ignored.push(h);
  }
  const fileErrors: CsvIssue[] = [];
  for (const req of REQUIRED_CSV_COLUMNS) {
    if (!headerOf.has(req))
      fileErrors.push({ field: req, key: 'catalog:csv.errors.missingColumn', params: { column: req } });
  }
  if (headers.length === 0) fileErrors.push({ field: '', key: 'catalog:csv.errors.empty' });

  const rowErrors = new Map<number, CsvIssue[]>();
  for (const e of parsed.errors) {
    if (e.row === undefined || e.row === null) continue;
    // A header-only file is not a row error.
    if (e.code === 'UndetectableDelimiter') continue;
    const list = rowErrors.get(e.row) ?? [];
    list.push({ field: '', key: 'catalog:csv.errors.parse', params: { message: e.message } });
    rowErrors.set(e.row, list);
  }

  const rows: CsvRow[] = parsed.data.map((record, i) => {
    const cells: Partial<Record<ItemCsvColumn, string>> = {};
    for (const col of columns) cells[col] = unescapeCell(String(record[headerOf.get(col) ?? -1] ?? ''));
    const errors: CsvIssue[] = [...(rowErrors.get(i) ?? [])];
    const codeCell = (cells.itemCode ?? '').trim();
    const code = ItemCode.safeParse(codeCell);
    if (!code.success) errors.push({ field: 'itemCode', ...issueKey(code.error.issues[0]) });
    const converted = convertRow(cells, columns, errors);
    if (fileErrors.length === 0) {
      const checked = ItemBody.safeParse(converted);
      if (!checked.success) {
        for (const issue of checked.error.issues) {
          const field = String(issue.path[0] ?? '');
          // A conversion error already explains this column.
          if (errors.some((e) => e.field === field)) continue;
          errors.push({ field, ...issueKey(issue) });
        }
      }
    }
    return {
      line: i + 2,
      code: code.success ? code.data : codeCell.toUpperCase(),
      body: errors.length === 0 ? converted : null,
      cells,
      errors,
    };
  });

  // The same code twice in one file: which row wins is unclear, so none of them is imported.
  const linesByCode = new Map<string, number[]>();
  for (const r of rows) {
    if (r.code === '') continue;
    linesByCode.set(r.code, [...(linesByCode.get(r.code) ?? []), r.line]);
  }
  for (const r of rows) {
    const lines = linesByCode.get(r.code);
    if (lines && lines.length > 1) {
      r.errors.push({
        field: 'itemCode',
        key: 'catalog:csv.errors.duplicate',
        params: { lines: lines.filter((l) => l !== r.line).join(', ') },
      });
      r.body = null;
    }
  }
  return { columns, ignored, fileErrors, rows };
}

/**
 * The PUT body of one imported row: the file's columns over the stored item (so columns
 * absent from the file, and the custom fields, keep their stored values), or the file's
 * columns alone for a new item.
 */
export function mergeForImport(existing: Item | null, fromFile: Partial<ItemBody>): ItemBody {
  const base: Partial<ItemBody> = existing ? itemToBody(existing) : {};
  const out = { ...base, ...fromFile } as ItemBody;
  return out;
}

function cellOf(item: Item, col: ItemCsvColumn): string {
  const v = item[col];
  if (v === null || v === undefined) return '';
  if (col === 'vatRates' && Array.isArray(v)) return v.join(';');
  return escapeCell(String(v));
}

/** The CSV text of a list of items, with every column, in the import's format. */
export function itemsToCsv(items: readonly Item[]): string {
  return Papa.unparse(
    {
      fields: [...ITEM_CSV_COLUMNS],
      data: items.map((it) => ITEM_CSV_COLUMNS.map((c) => cellOf(it, c))),
    },
    { newline: '\r\n', quotes: false },
  );
}

/** `items-2026-11-23.csv` (optionally with the filter words). */
export function exportFileName(now: Date, filter?: string): string {
  const day = now.toISOString().slice(0, 10);
  const slug = (filter ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `items-${slug ? `${slug}-` : ''}${day}.csv`;
}
