/**
 * The URL search params of the Work orders routes, validated by the router (pages read them
 * through `getRouteApi`). Plain TypeScript (no zod): they load with the shell. The value
 * lists repeat the contract's (a unit test checks they agree).
 */
import { isDay, oneOf, strictCode, text } from '../../app/searchParams.ts';

export { isDay, isUuid, UUID_PATTERN } from '../../app/searchParams.ts';

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

/** The page's own tabs; other features add theirs (app/feature.ts `tabs`), by key. */
export const TABS = ['activities', 'items'] as const;
export const VALIDATION_FILTERS = ['validated', 'notValidated'] as const;
export const INVOICING_FILTERS = ['billable', 'notBillable'] as const;
export const INVOICE_MODE_FILTERS = ['external', 'internal'] as const;

/** A work order's page: the tab and the grids' filters (absent: `all`). */
export interface WorkOrderSearch {
  /** One of TABS, or the key of a tab another feature adds. */
  tab?: string;
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
    type: strictCode(raw.type),
    office: strictCode(raw.office),
    technician: strictCode(raw.technician),
  };
}

export function validateWorkOrderSearch(
  raw: Record<string, unknown>,
  addedTabs: readonly string[] = [],
): WorkOrderSearch {
  return {
    tab: oneOf([...TABS, ...addedTabs], raw.tab),
    validation: oneOf(VALIDATION_FILTERS, raw.validation),
    invoicing: oneOf(INVOICING_FILTERS, raw.invoicing),
    invoiceMode: oneOf(INVOICE_MODE_FILTERS, raw.invoiceMode),
  };
}

export function validateTechnicianSearch(raw: Record<string, unknown>): TechnicianSearch {
  const at = typeof raw.at === 'number' ? raw.at : typeof raw.at === 'string' ? Number(raw.at) : Number.NaN;
  return {
    day: isDay(raw.day) ? raw.day : undefined,
    at: Number.isInteger(at) && at >= 0 && at <= 1440 ? at : undefined,
  };
}

export function validateTechniciansSearch(raw: Record<string, unknown>): TechniciansSearch {
  return { q: text(raw.q), office: strictCode(raw.office) };
}
