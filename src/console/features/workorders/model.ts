/**
 * The Work orders pages' logic without React: the grids' filters from the URL, durations and
 * money, the CSV of the grids, the column layout kept per user, when to fetch the next page,
 * and the technician's trace (positions projected into an SVG box). Unit-tested (model.test.ts).
 */

import type { WorkOrderSearch } from './search.ts';
import type { ActivityFilters, UsedItemFilters } from './transport.ts';

/* ---------------- filters ---------------- */

export function activityFilters(s: WorkOrderSearch): ActivityFilters {
  return { validationStatus: s.validation ?? 'all', invoicingStatus: s.invoicing ?? 'all' };
}
export function usedItemFilters(s: WorkOrderSearch): UsedItemFilters {
  return { invoiceMode: s.invoiceMode ?? 'all' };
}

/* ---------------- durations and numbers ---------------- */

/** `PT1H30M` -> 5400; `PT26H` -> 93600; anything else -> null. */
export function isoDurationSeconds(iso: string): number | null {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(iso);
  if (!m || iso === 'PT') return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Math.round(Number(m[3] ?? 0));
}

/** 5400 -> `1:30`; 93600 -> `26:00`; hours are not folded into days (a work order's sum). */
export function hoursMinutes(seconds: number): string {
  const total = Math.round(seconds / 60);
  const h = Math.floor(total / 60);
  return `${h}:${String(total % 60).padStart(2, '0')}`;
}

/** An RFC 3339 UTC instant as `YYYY-MM-DD HH:MM` (UTC, sortable, what the grids show). */
export function utcMinute(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace('T', ' ');
}

/* ---------------- CSV ---------------- */

/** One CSV field: quoted when it holds a separator, a quote or a line break; formulas defused. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  // A cell starting with = + - @ would be run by a spreadsheet: prefix it (numbers stay numbers).
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return `${[header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

export const ACTIVITY_CSV_HEADER = [
  'activityId',
  'activityTypeCode',
  'agentCode',
  'startTime',
  'endTime',
  'duration',
  'billable',
  'validatedAt',
  'lastUpdate',
] as const;

export const USED_ITEM_CSV_HEADER = [
  'usedItemId',
  'kind',
  'itemCode',
  'label',
  'quantity',
  'unit',
  'unitPrice',
  'amount',
  'invoiceMode',
  'serialNumber',
  'technicianCode',
  'lastUpdate',
] as const;

/** A file name: `<what>-<code>-<date>.csv`, only safe characters. */
export function csvName(what: string, code: string, now: Date): string {
  const safe = code.replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${what}-${safe}-${now.toISOString().slice(0, 10)}.csv`;
}

/* ---------------- pages ---------------- */

/**
 * Whether the grid asks for the next page: when the last row in view is within `ahead` rows
 * of the end of what is loaded (a page ahead of the reader, so scrolling rarely waits).
 */
export function shouldFetchNext(lastVisible: number, loaded: number, ahead: number): boolean {
  return loaded === 0 || lastVisible >= loaded - 1 - ahead;
}

/* ---------------- column layout per user ---------------- */

export interface ColumnLayout {
  sizing: Record<string, number>;
  order: string[];
}

export const MIN_COLUMN = 60;
export const MAX_COLUMN = 800;

/** The rows a column's width is fitted to: the first pages (identifiers keep their length). */
export const FIT_SAMPLE = 400;
/** A cell's padding (8 px a side) and a pixel of rounding. */
const CELL_PADDING = 18;

/**
 * Each column's width from its content: its header's longest word (the header wraps between
 * words, never inside one) and its longest cell of the first rows, on one line, measured by
 * `measure`; so no identifier is cut, and a column with short values gives its room to the
 * others. A column without a text of its rows keeps its declared size.
 */
export function fitColumnSizes<T>(
  columns: readonly { id: string; header: string; size: number; text?: (row: T) => string; mono?: boolean }[],
  rows: readonly T[],
  measure: (text: string, kind: 'header' | 'cell' | 'mono') => number,
): Record<string, number> {
  const sample = rows.slice(0, FIT_SAMPLE);
  const out: Record<string, number> = {};
  for (const c of columns) {
    const words = c.header.split(/\s+/).map((w) => measure(w, 'header'));
    let cell = 0;
    if (c.text && sample.length > 0) {
      // The longest few by length are measured (a proportional font: not always the first).
      const texts = [...new Set(sample.map((r) => c.text?.(r) ?? ''))].sort((a, b) => b.length - a.length);
      for (const text of texts.slice(0, 5)) cell = Math.max(cell, measure(text, c.mono ? 'mono' : 'cell'));
    } else cell = c.size - CELL_PADDING;
    const width = Math.ceil(Math.max(cell, ...words) + CELL_PADDING);
    out[c.id] = Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, width));
  }
  return out;
}

export const layoutKey = (user: string, grid: string) => `fieldwork.grid.${user}.${grid}`;

/**
 * The saved layout of a grid, kept only where it still fits the grid's columns: unknown
 * columns dropped, widths clamped, columns missing from the saved order appended.
 */
export function readLayout(raw: string | null, columns: readonly string[]): ColumnLayout {
  const fallback: ColumnLayout = { sizing: {}, order: [...columns] };
  if (!raw) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fallback;
  }
  const p = parsed as { sizing?: unknown; order?: unknown } | null;
  const sizing: Record<string, number> = {};
  if (p?.sizing && typeof p.sizing === 'object')
    for (const [k, v] of Object.entries(p.sizing as Record<string, unknown>))
      if (columns.includes(k) && typeof v === 'number' && Number.isFinite(v))
        sizing[k] = Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, Math.round(v)));
  const saved = Array.isArray(p?.order)
    ? (p.order as unknown[]).filter((c): c is string => typeof c === 'string')
    : [];
  const order = [...new Set(saved.filter((c) => columns.includes(c)))];
  for (const c of columns) if (!order.includes(c)) order.push(c);
  return { sizing, order };
}

/** The order with `id` moved one place left (-1) or right (+1); unchanged at an end. */
export function moveColumn(order: readonly string[], id: string, by: -1 | 1): string[] {
  const i = order.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return [...order];
  const next = [...order];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}

/* ---------------- technician's day and trace ---------------- */

/** The UTC day as the positions' period: `[day 00:00, next day 00:00)`. */
export function dayPeriod(day: string): { positionsStartDate: string; positionsEndDate: string } {
  const start = Date.parse(`${day}T00:00:00Z`);
  const next = new Date(start + 86_400_000).toISOString().slice(0, 10);
  return { positionsStartDate: `${day}T00:00`, positionsEndDate: `${next}T00:00` };
}

/** Minutes since the day's start (UTC) of an instant. */
export function minuteOfDay(iso: string, day: string): number {
  return Math.round((Date.parse(iso) - Date.parse(`${day}T00:00:00Z`)) / 60_000);
}

export interface TracePoint {
  x: number;
  y: number;
  minute: number;
  index: number;
}

/**
 * Positions projected into a `width` x `height` box with a margin, keeping the proportions
 * of the ground (longitude shrunk by the cosine of the latitude), north up.
 */
export function project(
  positions: readonly { latitude: number; longitude: number; timestamp: string }[],
  day: string,
  width: number,
  height: number,
  margin = 16,
): TracePoint[] {
  if (positions.length === 0) return [];
  const lats = positions.map((p) => p.latitude);
  const lons = positions.map((p) => p.longitude);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  const minLon = Math.min(...lons);
  const maxLon = Math.max(...lons);
  const k = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLon - minLon) * k, 1e-9);
  const spanY = Math.max(maxLat - minLat, 1e-9);
  const scale = Math.min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY);
  const offX = (width - spanX * scale) / 2;
  const offY = (height - spanY * scale) / 2;
  const r = (v: number) => Math.round(v * 10) / 10;
  return positions.map((p, index) => ({
    x: r(offX + (p.longitude - minLon) * k * scale),
    y: r(height - offY - (p.latitude - minLat) * scale),
    minute: minuteOfDay(p.timestamp, day),
    index,
  }));
}

/** The points at or before `minute` (positions are sorted by time). */
export function upTo(points: readonly TracePoint[], minute: number): TracePoint[] {
  let n = 0;
  while (n < points.length && points[n].minute <= minute) n++;
  return points.slice(0, n);
}

/** An SVG path through the points (`M x y L x y ...`), '' without points. */
export function pathOf(points: readonly TracePoint[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
}

/** `HH:MM` of a minute of the day; the day's end reads 23:59, its last minute (not "24:00"). */
export function clock(minute: number): string {
  const m = Math.max(0, Math.min(minute, 1439));
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** The day `days` after a `YYYY-MM-DD` day (UTC), as `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
