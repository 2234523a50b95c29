/**
 * The URL search params of the Work orders routes, validated by the router (pages read them
 * through `getRouteApi`). Plain TypeScript (no zod): they load with the shell. The value
 * lists repeat the contract's (a unit test checks they agree).
 */

export const WO_STATUSES = [
  'NEW',
  'QUALIFIED',
  'PRE_SCHEDULED',
  'SCHEDULED',
  'IN_PROGRESS',
  'COMPLETED',
  'VALIDATED',
  'CANCELLED',
] as const;
export type WoStatus = (typeof WO_STATUSES)[number];

/** `/workorders`: code prefix, statuses (comma separated in the URL), type, office, technician. */
export interface WorkOrdersSearch {
  q?: string;
  status?: string;
  type?: string;
  office?: string;
  technician?: string;
}

export const TABS = ['activities', 'items', 'planning'] as const;
export type Tab = (typeof TABS)[number];
export const VALIDATION_FILTERS = ['validated', 'notValidated'] as const;
export const INVOICING_FILTERS = ['billable', 'notBillable'] as const;
export const INVOICE_MODE_FILTERS = ['external', 'internal'] as const;

/** A work order's page: the tab and the grids' filters (absent: `all`). */
export interface WorkOrderSearch {
  tab?: Tab;
  validation?: (typeof VALIDATION_FILTERS)[number];
  invoicing?: (typeof INVOICING_FILTERS)[number];
  invoiceMode?: (typeof INVOICE_MODE_FILTERS)[number];
}

/** A technician's page: the day (`YYYY-MM-DD`, UTC) and the slider's minute of that day. */
export interface TechnicianSearch {
  day?: string;
  at?: number;
}

/** `/technicians`: text in the code or name, office. */
export interface TechniciansSearch {
  q?: string;
  office?: string;
}

const CODE = /^[A-Za-z0-9._-]{1,60}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined =>
  (list as readonly unknown[]).includes(v) ? (v as T) : undefined;
const text = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined;
const code = (v: unknown): string | undefined =>
  typeof v === 'string' && CODE.test(v.trim()) ? v.trim().toUpperCase() : undefined;

/** Known statuses of a comma list, uppercased, deduplicated, in the lifecycle's order. */
export function parseStatuses(v: unknown): WoStatus[] {
  if (typeof v !== 'string') return [];
  const wanted = new Set(v.split(',').map((s) => s.trim().toUpperCase()));
  return WO_STATUSES.filter((s) => wanted.has(s));
}

export function validateWorkOrdersSearch(raw: Record<string, unknown>): WorkOrdersSearch {
  const statuses = parseStatuses(raw.status);
  return {
    q: text(raw.q),
    status: statuses.length ? statuses.join(',') : undefined,
    type: code(raw.type),
    office: code(raw.office),
    technician: code(raw.technician),
  };
}

export function validateWorkOrderSearch(raw: Record<string, unknown>): WorkOrderSearch {
  return {
    tab: oneOf(TABS, raw.tab),
    validation: oneOf(VALIDATION_FILTERS, raw.validation),
    invoicing: oneOf(INVOICING_FILTERS, raw.invoicing),
    invoiceMode: oneOf(INVOICE_MODE_FILTERS, raw.invoiceMode),
  };
}

/** A real calendar day (2025-02-30 is refused, not moved). */
export function isDay(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DAY.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}

export function validateTechnicianSearch(raw: Record<string, unknown>): TechnicianSearch {
  const at = typeof raw.at === 'number' ? raw.at : typeof raw.at === 'string' ? Number(raw.at) : Number.NaN;
  return {
    day: isDay(raw.day) ? raw.day : undefined,
    at: Number.isInteger(at) && at >= 0 && at <= 1440 ? at : undefined,
  };
}

export function validateTechniciansSearch(raw: Record<string, unknown>): TechniciansSearch {
  return { q: text(raw.q), office: code(raw.office) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A uuid (what the palette and the list's search box open by uuid). */
export const isUuid = (v: string) => UUID.test(v.trim());
export const UUID_PATTERN = UUID.source;
