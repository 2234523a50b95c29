/**
 * Field service: the work order model shared by the field tracking, field service, project
 * management, scheduling, diagnostic and webhooks domains (gaps.md: statuses, identity).
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import { Code, Page, QueryInteger } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

/** Statuses in order (gaps.md). */
export const WORK_ORDER_STATUSES = [
  'NEW',
  'QUALIFIED',
  'PRE_SCHEDULED',
  'SCHEDULED',
  'IN_PROGRESS',
  'COMPLETED',
  'VALIDATED',
  'CANCELLED',
] as const;
export const WorkOrderStatus = z.enum(WORK_ORDER_STATUSES).meta({ id: 'WorkOrderStatus' });
export type WorkOrderStatus = z.infer<typeof WorkOrderStatus>;

/** A live work order is any non-validated one (spec: States); a code names the live one first. */
export const isLive = (status: WorkOrderStatus) => status !== 'VALIDATED';

/** "Completed or higher" (spec: States; gaps.md): completed, validated, and cancelled (terminal). */
export const isCompletedOrHigher = (status: WorkOrderStatus) =>
  status === 'COMPLETED' || status === 'VALIDATED' || status === 'CANCELLED';

/** Where the work is done (every part optional; latitude and longitude both or none). */
export const WorkOrderLocation = z
  .strictObject({
    address: z.string().max(10000).nullish(),
    zipCode: z.string().max(20).nullish(),
    city: z.string().max(256).nullish(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullish(),
    latitude: z.number().min(-90).max(90).nullish(),
    longitude: z.number().min(-180).max(180).nullish(),
  })
  .refine((l) => (l.latitude == null) === (l.longitude == null), {
    message: 'latitude and longitude go together',
    path: ['latitude'],
  })
  .meta({ id: 'WorkOrderLocation' });
export type WorkOrderLocation = z.output<typeof WorkOrderLocation>;

/**
 * An identifier given by the field system (activityId, usedItemId): 1..200 characters without
 * spaces or control characters, kept as given (case-sensitive: it is not a code).
 */
export const RecordId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}\s]+$/u, 'no spaces or control characters')
  .meta({ description: '1..200 characters without spaces; kept as given (case-sensitive)' });

/** Where an import row names its work order: exactly one of workOrderUuid and workOrderCode. */
export const WorkOrderRefFields = {
  workOrderUuid: z
    .uuid()
    .transform((u) => u.toLowerCase())
    .optional(),
  workOrderCode: Code(200).optional(),
};
export const oneWorkOrderRef = (r: { workOrderUuid?: string; workOrderCode?: string }) =>
  (r.workOrderUuid === undefined) !== (r.workOrderCode === undefined);
export const ONE_WORK_ORDER_REF = {
  message: 'give exactly one of workOrderUuid (that work order) and workOrderCode (the live one)',
  path: ['workOrderUuid'],
};

/* ======================================================================================
 * Endpoints (spec endpoint 4 and its uuid: companion; issue 10's console extensions and the
 * work order lifecycle: read, list, validate, delete).
 * ==================================================================================== */

const BASE = '/eTech/rest/ws/fieldService/v1/workOrders';
export const FIELD_SERVICE = 'fieldService';

/** Spec: "used items pageSize maximum 200"; the default is ours (spec: not shown). */
export const USED_ITEMS_PAGE_SIZE_MAX = 200;
export const USED_ITEMS_PAGE_SIZE_DEFAULT = 100;
export const WORK_ORDERS_PAGE_SIZE = 100;

export const FieldServiceCodes = {
  /** Unknown, or outside the caller's office tree (the same answer). */
  workOrderNotFound: 'fieldService.workOrder.notfound',
  /** Several live work orders carry the code: name the work order by uuid. */
  workOrderAmbiguous: 'fieldService.workOrder.code.ambiguous',
  continuationTokenInvalid: 'fieldService.continuationToken.invalid',
  pageSizeInvalid: derivedCode.invalid(FIELD_SERVICE, 'pageSize'),
  invoiceModeInvalid: derivedCode.invalid(FIELD_SERVICE, 'invoiceMode'),
  workOrderCodeInvalid: derivedCode.invalid(FIELD_SERVICE, 'workOrderCode'),
  workOrderUuidInvalid: derivedCode.invalid(FIELD_SERVICE, 'workOrderUuid'),
  fieldUnknown: derivedCode.fieldUnknown(FIELD_SERVICE),
  codeMandatory: `${FIELD_SERVICE}.code.mandatory`,
  /* Work order list filters. */
  qInvalid: derivedCode.invalid(FIELD_SERVICE, 'q'),
  statusInvalid: derivedCode.invalid(FIELD_SERVICE, 'status'),
  workOrderTypeCodeInvalid: derivedCode.invalid(FIELD_SERVICE, 'workOrderTypeCode'),
  officeCodeInvalid: derivedCode.invalid(FIELD_SERVICE, 'officeCode'),
  technicianCodeInvalid: derivedCode.invalid(FIELD_SERVICE, 'technicianCode'),
  /** officeCode names no office of the caller's tree. */
  officeUnknown: 'fieldService.office.unknown',
  /* Lifecycle. */
  /** Validation of a CANCELLED work order. */
  validationCancelled: 'fieldService.workOrder.validation.cancelled',
  /** Validation of a work order that is VALIDATED already. */
  validationAlreadyValidated: 'fieldService.workOrder.validation.validated',
  /** A record of another domain refers to the work order without cascading: nothing was deleted. */
  deletionReferenced: 'fieldService.workOrder.deletion.referenced',
  /* Import refusals (keys workOrderTypes, workOrders, usedItems). */
  workOrderTypeUnknown: 'fieldService.workOrderType.unknown',
  workOrderTypeSkillUnknown: 'fieldService.workOrderType.skill.unknown',
  technicianUnknown: 'fieldService.technician.unknown',
  usedItemItemUnknown: 'fieldService.usedItem.item.unknown',
  usedItemSerialNumberInvalid: 'fieldService.usedItem.serialNumber.invalid',
} as const;

const byCode = z.object({ workOrderCode: Code() });
const byUuid = z.object({ workOrderUuid: z.uuid().transform((u) => u.toLowerCase()) });
const pathErrors = (by: 'code' | 'uuid') => [
  FieldServiceCodes.codeMandatory,
  ...(by === 'code'
    ? [FieldServiceCodes.workOrderAmbiguous, FieldServiceCodes.workOrderCodeInvalid]
    : [FieldServiceCodes.workOrderUuidInvalid]),
];

/* ---------------- used items (spec endpoint 4 and its uuid: companion) ---------------- */

export const USED_ITEM_KINDS = ['part', 'labour', 'onTheFly'] as const;
export const UsedItemKind = z.enum(USED_ITEM_KINDS).meta({ id: 'UsedItemKind' });
export const INVOICE_MODES = ['external', 'internal'] as const;
export const InvoiceMode = z.enum(INVOICE_MODES).meta({ id: 'InvoiceMode' });
export type InvoiceMode = z.infer<typeof InvoiceMode>;

const invoiceModeFilter = z
  .enum([...INVOICE_MODES, 'all'])
  .default('all')
  .meta({
    description:
      '`external` (items charged to an external party), `internal` (items consumed internally) or `all` (default)',
  });

export const UsedItemsQuery = z
  .strictObject({
    continuationToken: z
      .string()
      .optional()
      .meta({ description: 'From the previous page; absent: first page' }),
    pageSize: QueryInteger(1, USED_ITEMS_PAGE_SIZE_MAX)
      .optional()
      .meta({
        description: `Elements a page, 1..${USED_ITEMS_PAGE_SIZE_MAX}, default ${USED_ITEMS_PAGE_SIZE_DEFAULT}. May change from one page to the next.`,
      }),
    invoiceMode: invoiceModeFilter,
  })
  .meta({ id: 'UsedItemsQuery' });
export type UsedItemsQuery = z.output<typeof UsedItemsQuery>;

/** Spec: "Fields of a used item: not shown"; designed in the spec's style (docs/api/fieldService.md). */
export const UsedItem = z
  .object({
    usedItemId: z.string(),
    kind: UsedItemKind.meta({
      description: '`part` (a consumed part), `labour` (a labour item) or `onTheFly` (declared on the spot)',
    }),
    itemCode: z.string().nullable().meta({ description: 'Item of the catalog; null for an onTheFly item' }),
    label: z.string().nullable().meta({ description: 'What was used, as declared (required for onTheFly)' }),
    quantity: z.number(),
    unit: z.string().nullable().meta({ description: 'e.g. "piece", "hour"' }),
    unitPrice: z.number().nullable(),
    amount: z
      .number()
      .nullable()
      .meta({ description: 'quantity x unitPrice, rounded to cents; null without a price' }),
    invoiceMode: InvoiceMode,
    serialNumber: z.string().nullable(),
    technicianCode: z.string().nullable().meta({ description: 'Technician who used it' }),
    lastUpdate: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'UsedItem' });
export type UsedItem = z.infer<typeof UsedItem>;
export const UsedItemPage = Page(UsedItem).meta({ id: 'UsedItemPage' });

/** The list both companions walk: a token of one is valid on the other for the same work order. */
export const USED_ITEMS_LIST = 'fieldService.workOrders.usedItems';

const usedItemsErrors = (by: 'code' | 'uuid') => ({
  400: [
    FieldServiceCodes.continuationTokenInvalid,
    FieldServiceCodes.pageSizeInvalid,
    FieldServiceCodes.invoiceModeInvalid,
    FieldServiceCodes.fieldUnknown,
    ...pathErrors(by),
  ],
  404: [FieldServiceCodes.workOrderNotFound],
});
const usedItemsSummary =
  'Items used on the work order (parts, labour, on-the-fly items), sorted by lastUpdate descending then ' +
  `usedItemId descending; pageSize 1..${USED_ITEMS_PAGE_SIZE_MAX}, default ${USED_ITEMS_PAGE_SIZE_DEFAULT}. ` +
  '404 for a work order unknown or outside your office tree. The continuationToken is bound to the work ' +
  'order (the code: and uuid: paths of one work order walk the same list) and to invoiceMode.';

export const listUsedItemsByCode = endpoint({
  id: 'fieldService.workOrders.usedItems.code',
  method: 'GET',
  path: `${BASE}/code:{workOrderCode}/items/used`,
  domain: 'fieldService',
  range: 'high',
  summary: usedItemsSummary,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  query: UsedItemsQuery,
  responses: { 200: UsedItemPage },
  errors: usedItemsErrors('code'),
});

export const listUsedItemsByUuid = endpoint({
  id: 'fieldService.workOrders.usedItems.uuid',
  method: 'GET',
  path: `${BASE}/uuid:{workOrderUuid}/items/used`,
  domain: 'fieldService',
  range: 'high',
  summary: usedItemsSummary,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  query: UsedItemsQuery,
  responses: { 200: UsedItemPage },
  errors: usedItemsErrors('uuid'),
});

/* ---------------- used item totals (extension) ---------------- */

const UsedItemSum = z
  .object({
    count: z.number().int(),
    quantity: z.number().meta({ description: 'Sum of the quantities, whatever their unit' }),
    amount: z.number().meta({ description: 'Sum of quantity x unitPrice of the priced lines' }),
    unpricedCount: z.number().int().meta({ description: 'Lines without a unitPrice (not in amount)' }),
  })
  .meta({ id: 'UsedItemSum' });

export const UsedItemTotals = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    all: UsedItemSum,
    external: UsedItemSum,
    internal: UsedItemSum,
  })
  .meta({ id: 'UsedItemTotals' });
export type UsedItemTotals = z.infer<typeof UsedItemTotals>;

export const UsedItemTotalsQuery = z
  .strictObject({ invoiceMode: invoiceModeFilter })
  .meta({ id: 'UsedItemTotalsQuery' });

const usedTotalsSummary =
  'Totals of the used items matching invoiceMode: count, quantity and amount, for all of them and by ' +
  'invoice mode. One aggregate in the database.';
const usedTotalsErrors = (by: 'code' | 'uuid') => ({
  400: [FieldServiceCodes.invoiceModeInvalid, FieldServiceCodes.fieldUnknown, ...pathErrors(by)],
  404: [FieldServiceCodes.workOrderNotFound],
});

export const usedItemTotalsByCode = endpoint({
  id: 'fieldService.workOrders.usedItems.totals.code',
  method: 'GET',
  path: `${BASE}/code:{workOrderCode}/items/used/totals`,
  domain: 'fieldService',
  range: 'standard',
  summary: usedTotalsSummary,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  query: UsedItemTotalsQuery,
  responses: { 200: UsedItemTotals },
  errors: usedTotalsErrors('code'),
  extension: true,
});

export const usedItemTotalsByUuid = endpoint({
  id: 'fieldService.workOrders.usedItems.totals.uuid',
  method: 'GET',
  path: `${BASE}/uuid:{workOrderUuid}/items/used/totals`,
  domain: 'fieldService',
  range: 'standard',
  summary: usedTotalsSummary,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  query: UsedItemTotalsQuery,
  responses: { 200: UsedItemTotals },
  errors: usedTotalsErrors('uuid'),
  extension: true,
});

/* ---------------- work orders: read and list (extensions) ---------------- */

const nullableText = z.string().nullable();

export const WorkOrder = z
  .object({
    uuid: z.string(),
    workOrderCode: z.string(),
    workOrderTypeCode: z.string(),
    workOrderTypeName: z.string(),
    status: WorkOrderStatus,
    officeCode: z.string(),
    customerCode: nullableText,
    siteCode: nullableText,
    assetCode: nullableText,
    location: z
      .object({
        address: nullableText,
        zipCode: nullableText,
        city: nullableText,
        country: nullableText,
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
      })
      .meta({ id: 'WorkOrderLocationOut' }),
    description: nullableText,
    schedule: z
      .object({
        technicianCode: nullableText,
        crewCode: nullableText,
        scheduledStart: nullableText.meta({ format: 'date-time' }),
        scheduledEnd: nullableText.meta({
          format: 'date-time',
          description: "scheduledStart plus the type's duration",
        }),
        durationMinutes: z.number().int().meta({ description: "The type's duration" }),
      })
      .meta({ id: 'WorkOrderScheduleOut' }),
    lastUpdate: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'WorkOrder' });
export type WorkOrder = z.infer<typeof WorkOrder>;

export const WorkOrderListQuery = z
  .strictObject({
    q: z.string().max(200).optional().meta({
      description: 'Start of the work order code (case-insensitive): `WO-10` finds WO-1001, WO-1002...',
    }),
    status: z
      .string()
      .transform((s, ctx) => {
        const list = [...new Set(s.split(',').map((x) => x.trim().toUpperCase()))];
        const bad = list.filter((x) => !(WORK_ORDER_STATUSES as readonly string[]).includes(x));
        if (bad.length) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown status ${bad.join(', ')} (${WORK_ORDER_STATUSES.join(', ')})`,
          });
          return z.NEVER;
        }
        return list.sort() as WorkOrderStatus[];
      })
      .optional()
      .meta({ description: `One status or several separated by commas: ${WORK_ORDER_STATUSES.join(', ')}` }),
    workOrderTypeCode: Code().optional(),
    officeCode: Code().optional().meta({ description: 'That office and the offices below it' }),
    technicianCode: Code().optional().meta({ description: 'Scheduled on that technician' }),
    continuationToken: z.string().optional(),
  })
  .meta({ id: 'WorkOrderListQuery' });
export type WorkOrderListQuery = z.output<typeof WorkOrderListQuery>;

export const listWorkOrders = endpoint({
  id: 'fieldService.workOrders.list',
  method: 'GET',
  path: BASE,
  domain: 'fieldService',
  range: 'standard',
  summary:
    `Work orders of your office tree, ${WORK_ORDERS_PAGE_SIZE} a page, sorted by code (then creation): search by ` +
    'code prefix, status, type, office (and below) and technician. The continuationToken is bound to the filters.',
  errorPrefix: FIELD_SERVICE,
  query: WorkOrderListQuery,
  responses: { 200: Page(WorkOrder).meta({ id: 'WorkOrderPage' }) },
  errors: {
    400: [
      FieldServiceCodes.continuationTokenInvalid,
      FieldServiceCodes.officeUnknown,
      FieldServiceCodes.qInvalid,
      FieldServiceCodes.statusInvalid,
      FieldServiceCodes.workOrderTypeCodeInvalid,
      FieldServiceCodes.officeCodeInvalid,
      FieldServiceCodes.technicianCodeInvalid,
      FieldServiceCodes.fieldUnknown,
    ],
  },
  extension: true,
});

const readSummary =
  'The work order: status, type, office, customer, site, asset, location and schedule (with its end). By ' +
  'code: the live (non-validated) one, else the latest validated one.';

export const getWorkOrderByCode = endpoint({
  id: 'fieldService.workOrders.get.code',
  method: 'GET',
  path: `${BASE}/code:{workOrderCode}`,
  domain: 'fieldService',
  range: 'high',
  summary: readSummary,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  responses: { 200: WorkOrder },
  errors: { 400: pathErrors('code'), 404: [FieldServiceCodes.workOrderNotFound] },
  extension: true,
});

export const getWorkOrderByUuid = endpoint({
  id: 'fieldService.workOrders.get.uuid',
  method: 'GET',
  path: `${BASE}/uuid:{workOrderUuid}`,
  domain: 'fieldService',
  range: 'high',
  summary: readSummary,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  responses: { 200: WorkOrder },
  errors: { 400: pathErrors('uuid'), 404: [FieldServiceCodes.workOrderNotFound] },
  extension: true,
});

/* ---------------- work orders: validate and delete (extensions; webhooks events) ---------------- */

const validateSummary =
  'Validates the work order: status VALIDATED (204) and the event workorder.validation. Refused for a ' +
  'CANCELLED work order and for one validated already. By code: the live one.';

export const validateWorkOrderByCode = endpoint({
  id: 'fieldService.workOrders.validate.code',
  method: 'POST',
  path: `${BASE}/code:{workOrderCode}/validate`,
  domain: 'fieldService',
  range: 'standard',
  summary: validateSummary,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  responses: { 204: undefined },
  errors: {
    400: [
      FieldServiceCodes.validationCancelled,
      FieldServiceCodes.validationAlreadyValidated,
      ...pathErrors('code'),
    ],
    404: [FieldServiceCodes.workOrderNotFound],
  },
  extension: true,
});

export const validateWorkOrderByUuid = endpoint({
  id: 'fieldService.workOrders.validate.uuid',
  method: 'POST',
  path: `${BASE}/uuid:{workOrderUuid}/validate`,
  domain: 'fieldService',
  range: 'standard',
  summary: validateSummary,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  responses: { 204: undefined },
  errors: {
    400: [
      FieldServiceCodes.validationCancelled,
      FieldServiceCodes.validationAlreadyValidated,
      ...pathErrors('uuid'),
    ],
    404: [FieldServiceCodes.workOrderNotFound],
  },
  extension: true,
});

const deleteSummary =
  'Deletes the work order with its activities, used items, flags, notes and project or service order links ' +
  '(204) and emits workorder.deletion. By code: the live one.';

export const deleteWorkOrderByCode = endpoint({
  id: 'fieldService.workOrders.delete.code',
  method: 'DELETE',
  path: `${BASE}/code:{workOrderCode}`,
  domain: 'fieldService',
  range: 'standard',
  summary: deleteSummary,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  responses: { 204: undefined },
  errors: {
    400: [FieldServiceCodes.deletionReferenced, ...pathErrors('code')],
    404: [FieldServiceCodes.workOrderNotFound],
  },
  extension: true,
});

export const deleteWorkOrderByUuid = endpoint({
  id: 'fieldService.workOrders.delete.uuid',
  method: 'DELETE',
  path: `${BASE}/uuid:{workOrderUuid}`,
  domain: 'fieldService',
  range: 'standard',
  summary: deleteSummary,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  responses: { 204: undefined },
  errors: {
    400: [FieldServiceCodes.deletionReferenced, ...pathErrors('uuid')],
    404: [FieldServiceCodes.workOrderNotFound],
  },
  extension: true,
});

/* ---------------- work order types (extension for the planner) ---------------- */

export const WORK_ORDER_TYPES_PAGE_SIZE = 500;

/** A work order type as the import wrote it: what a work order of this type needs. */
export const WorkOrderType = z
  .object({
    workOrderTypeCode: z.string(),
    name: z.string(),
    durationMinutes: z.number().int().meta({ description: 'How long the work takes' }),
    skills: z.array(z.string()).meta({ description: 'Skill codes a technician must hold, sorted' }),
  })
  .meta({ id: 'WorkOrderType' });
export type WorkOrderType = z.infer<typeof WorkOrderType>;

export const listWorkOrderTypes = endpoint({
  id: 'fieldService.workOrderTypes.list',
  method: 'GET',
  path: '/eTech/rest/ws/fieldService/v1/workOrderTypes',
  domain: 'fieldService',
  range: 'standard',
  summary:
    `Work order types (the tenant's, like the catalog; loaded by import) with their duration and needed skills, sorted by code, ` +
    `${WORK_ORDER_TYPES_PAGE_SIZE} a page: what the planner offers for a slot search by type.`,
  errorPrefix: FIELD_SERVICE,
  query: z.strictObject({ continuationToken: z.string().optional() }),
  responses: { 200: Page(WorkOrderType).meta({ id: 'WorkOrderTypePage' }) },
  errors: { 400: [FieldServiceCodes.continuationTokenInvalid, FieldServiceCodes.fieldUnknown] },
  extension: true,
});

/** The fieldService endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const getWorkOrderHistoryByCode = historyEndpoint({
  id: 'fieldService.workOrders.history.code',
  domain: 'fieldService',
  recordPath: `${BASE}/code:{workOrderCode}`,
  errorPrefix: FIELD_SERVICE,
  params: byCode,
  notFound: [FieldServiceCodes.workOrderNotFound],
  continuationTokenInvalid: FieldServiceCodes.continuationTokenInvalid,
  label: 'a work order with its activities, used items, links and scheduling',
});
export const getWorkOrderHistoryByUuid = historyEndpoint({
  id: 'fieldService.workOrders.history.uuid',
  domain: 'fieldService',
  recordPath: `${BASE}/uuid:{workOrderUuid}`,
  errorPrefix: FIELD_SERVICE,
  params: byUuid,
  notFound: [FieldServiceCodes.workOrderNotFound],
  continuationTokenInvalid: FieldServiceCodes.continuationTokenInvalid,
  label: 'a work order with its activities, used items, links and scheduling',
});

export const fieldServiceEndpoints = {
  listUsedItemsByCode,
  listUsedItemsByUuid,
  usedItemTotalsByCode,
  usedItemTotalsByUuid,
  listWorkOrders,
  getWorkOrderByCode,
  getWorkOrderByUuid,
  getWorkOrderHistoryByCode,
  getWorkOrderHistoryByUuid,
  validateWorkOrderByCode,
  validateWorkOrderByUuid,
  deleteWorkOrderByCode,
  deleteWorkOrderByUuid,
  listWorkOrderTypes,
};
