/**
 * Field tracking (spec endpoints 1-3; issue 10): a technician's positions and a work
 * order's activities, plus the console's extensions (activity totals, activity types).
 *
 * Pages are keyset: positions by timestamp (unique per technician), activities by startTime
 * then activityId (unique), each with an opaque, signed continuationToken bound to the list,
 * the technician or work order it walks and the filters it was issued with.
 */
import { z } from 'zod';
import { Code, DateTimeInput, Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/eTech/rest/ws/fieldTracking/v1';
export const FIELD_TRACKING = 'fieldTracking';

/** Spec: Limits, "page size: positions 500; work order activities 200". */
export const POSITIONS_PAGE_SIZE = 500;
export const ACTIVITIES_PAGE_SIZE = 200;
export const ACTIVITY_TYPES_PAGE_SIZE = 500;

export const FieldTrackingCodes = {
  /** Spec: Common codes. A token that does not verify, or comes back on another list or filters. */
  continuationTokenInvalid: 'fieldTracking.continuationToken.invalid',
  /** Spec: Common codes. Unknown, or outside the caller's office tree (the same answer). */
  workOrderNotFound: 'fieldTracking.workOrder.notfound',
  /** Several live work orders of the caller's tree carry the code: name it by uuid. */
  workOrderAmbiguous: 'fieldTracking.workOrder.code.ambiguous',
  /** Unknown technician, or outside the caller's office tree (the same answer). */
  technicianNotFound: 'fieldTracking.technician.notfound',
  /** positionsEndDate at or before positionsStartDate. */
  positionsPeriodInvalid: 'fieldTracking.positions.period.invalid',
  validationStatusInvalid: derivedCode.invalid(FIELD_TRACKING, 'validationStatus'),
  invoicingStatusInvalid: derivedCode.invalid(FIELD_TRACKING, 'invoicingStatus'),
  positionsStartDateInvalid: derivedCode.invalid(FIELD_TRACKING, 'positionsStartDate'),
  positionsEndDateInvalid: derivedCode.invalid(FIELD_TRACKING, 'positionsEndDate'),
  workOrderCodeInvalid: derivedCode.invalid(FIELD_TRACKING, 'workOrderCode'),
  workOrderUuidInvalid: derivedCode.invalid(FIELD_TRACKING, 'workOrderUuid'),
  technicianCodeInvalid: derivedCode.invalid(FIELD_TRACKING, 'technicianCode'),
  fieldUnknown: derivedCode.fieldUnknown(FIELD_TRACKING),
  codeMandatory: `${FIELD_TRACKING}.code.mandatory`,
  /* Import refusals (keys activities and positions). */
  activityTypeUnknown: 'fieldTracking.activity.activityType.unknown',
  agentUnknown: 'fieldTracking.activity.agent.unknown',
  positionTechnicianUnknown: 'fieldTracking.position.technician.unknown',
} as const;

/* ---------------- activities (spec endpoints 2 and 3) ---------------- */

export const VALIDATION_STATUSES = ['validated', 'notValidated', 'all'] as const;
export const INVOICING_STATUSES = ['billable', 'notBillable', 'all'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];
export type InvoicingStatus = (typeof INVOICING_STATUSES)[number];

const activityFilters = {
  validationStatus: z
    .enum(VALIDATION_STATUSES)
    .default('all')
    .meta({ description: '`validated` (validatedAt set), `notValidated` or `all` (default)' }),
  invoicingStatus: z
    .enum(INVOICING_STATUSES)
    .default('all')
    .meta({ description: '`billable`, `notBillable` or `all` (default)' }),
};

export const ActivitiesQuery = z
  .strictObject({
    ...activityFilters,
    continuationToken: z
      .string()
      .optional()
      .meta({ description: 'From the previous page; absent: first page' }),
  })
  .meta({ id: 'ActivitiesQuery' });
export type ActivitiesQuery = z.output<typeof ActivitiesQuery>;

/** Spec: "Work order activity", exactly its fields. */
export const Activity = z
  .object({
    activityId: z.string(),
    activityTypeCode: z.string().meta({ description: 'Code of the activity type' }),
    agentCode: z.string().meta({ description: 'Code of the technician' }),
    startTime: z.string().meta({ format: 'date-time', description: 'UTC, RFC 3339' }),
    endTime: z.string().meta({ format: 'date-time', description: 'UTC, RFC 3339' }),
    duration: z.string().meta({ description: 'ISO 8601 duration from startTime to endTime, e.g. `PT1H30M`' }),
    billable: z.boolean(),
    validatedAt: z.string().nullable().meta({ format: 'date-time', description: 'null: not validated' }),
    lastUpdate: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'WorkOrderActivity' });
export type Activity = z.infer<typeof Activity>;
export const ActivityPage = Page(Activity).meta({ id: 'WorkOrderActivityPage' });

const byCode = z.object({ workOrderCode: Code() });
const byUuid = z.object({ workOrderUuid: z.uuid().transform((u) => u.toLowerCase()) });

const activitiesErrors = (by: 'code' | 'uuid') => ({
  400: [
    FieldTrackingCodes.continuationTokenInvalid,
    FieldTrackingCodes.validationStatusInvalid,
    FieldTrackingCodes.invoicingStatusInvalid,
    FieldTrackingCodes.fieldUnknown,
    FieldTrackingCodes.codeMandatory,
    ...(by === 'code'
      ? [FieldTrackingCodes.workOrderAmbiguous, FieldTrackingCodes.workOrderCodeInvalid]
      : [FieldTrackingCodes.workOrderUuidInvalid]),
  ],
  404: [FieldTrackingCodes.workOrderNotFound],
});
const activitiesSummary =
  `Activities of the work order, ${ACTIVITIES_PAGE_SIZE} a page, sorted by startTime then activityId. ` +
  'By code: the live (non-validated) work order carrying it. The continuationToken is bound to the work ' +
  'order (the code: and uuid: paths of one work order walk the same list) and to the filters; a token ' +
  'given with other filters is refused (400).';

/** The list both companions walk: a token of one is valid on the other for the same work order. */
export const ACTIVITIES_LIST = 'fieldTracking.workOrders.activities';

export const listActivitiesByCode = endpoint({
  id: 'fieldTracking.workOrders.activities.code',
  method: 'GET',
  path: `${BASE}/workOrders/code:{workOrderCode}/activities`,
  domain: 'fieldTracking',
  range: 'high',
  summary: activitiesSummary,
  errorPrefix: FIELD_TRACKING,
  params: byCode,
  query: ActivitiesQuery,
  responses: { 200: ActivityPage },
  errors: activitiesErrors('code'),
});

export const listActivitiesByUuid = endpoint({
  id: 'fieldTracking.workOrders.activities.uuid',
  method: 'GET',
  path: `${BASE}/workOrders/uuid:{workOrderUuid}/activities`,
  domain: 'fieldTracking',
  range: 'high',
  summary: activitiesSummary,
  errorPrefix: FIELD_TRACKING,
  params: byUuid,
  query: ActivitiesQuery,
  responses: { 200: ActivityPage },
  errors: activitiesErrors('uuid'),
});

/* ---------------- activity totals (extension) ---------------- */

export const ActivityTotalsQuery = z.strictObject(activityFilters).meta({ id: 'ActivityTotalsQuery' });

const DurationSum = z
  .object({
    count: z.number().int(),
    duration: z.string().meta({ description: 'ISO 8601 duration, e.g. `PT12H30M`' }),
    durationSeconds: z.number().int(),
  })
  .meta({ id: 'ActivityDurationSum' });

export const ActivityTotals = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    count: z.number().int(),
    duration: z.string().meta({ description: 'ISO 8601 duration: the sum of the activities' }),
    durationSeconds: z.number().int(),
    billable: DurationSum,
    notBillable: DurationSum,
    validatedCount: z.number().int(),
    notValidatedCount: z.number().int(),
    firstStartTime: z.string().nullable().meta({ format: 'date-time' }),
    lastEndTime: z.string().nullable().meta({ format: 'date-time' }),
  })
  .meta({ id: 'ActivityTotals' });
export type ActivityTotals = z.infer<typeof ActivityTotals>;

const totalsSummary =
  'Totals of the activities matching the filters (the same as the list): count, summed duration, billable ' +
  'and non-billable count and duration, validated and not validated counts. One aggregate in the database, ' +
  'so a client never sums 20,000 rows itself.';
const totalsErrors = (by: 'code' | 'uuid') => ({
  400: activitiesErrors(by)[400].filter((c) => c !== FieldTrackingCodes.continuationTokenInvalid),
  404: [FieldTrackingCodes.workOrderNotFound],
});

export const activityTotalsByCode = endpoint({
  id: 'fieldTracking.workOrders.activities.totals.code',
  method: 'GET',
  path: `${BASE}/workOrders/code:{workOrderCode}/activities/totals`,
  domain: 'fieldTracking',
  range: 'standard',
  summary: totalsSummary,
  errorPrefix: FIELD_TRACKING,
  params: byCode,
  query: ActivityTotalsQuery,
  responses: { 200: ActivityTotals },
  errors: totalsErrors('code'),
  extension: true,
});

export const activityTotalsByUuid = endpoint({
  id: 'fieldTracking.workOrders.activities.totals.uuid',
  method: 'GET',
  path: `${BASE}/workOrders/uuid:{workOrderUuid}/activities/totals`,
  domain: 'fieldTracking',
  range: 'standard',
  summary: totalsSummary,
  errorPrefix: FIELD_TRACKING,
  params: byUuid,
  query: ActivityTotalsQuery,
  responses: { 200: ActivityTotals },
  errors: totalsErrors('uuid'),
  extension: true,
});

/* ---------------- activity types (extension) ---------------- */

export const ActivityType = z
  .object({ activityTypeCode: z.string(), name: z.string() })
  .meta({ id: 'ActivityType' });

export const listActivityTypes = endpoint({
  id: 'fieldTracking.activityTypes.list',
  method: 'GET',
  path: `${BASE}/activityTypes`,
  domain: 'fieldTracking',
  range: 'standard',
  summary: `Activity types (loaded by import), sorted by code, ${ACTIVITY_TYPES_PAGE_SIZE} a page: the names behind activityTypeCode.`,
  errorPrefix: FIELD_TRACKING,
  query: z.strictObject({ continuationToken: z.string().optional() }),
  responses: { 200: Page(ActivityType).meta({ id: 'ActivityTypePage' }) },
  errors: { 400: [FieldTrackingCodes.continuationTokenInvalid, FieldTrackingCodes.fieldUnknown] },
  extension: true,
});

/* ---------------- positions (spec endpoint 1) ---------------- */

export const PositionsQuery = z
  .strictObject({
    positionsStartDate: DateTimeInput.optional().meta({
      description:
        'UTC date-time `YYYY-MM-DDTHH:MM` (seconds optional): positions at or after it. Absent: from the first one.',
    }),
    positionsEndDate: DateTimeInput.optional().meta({
      'x-extension': true,
      description:
        'Extension. UTC date-time `YYYY-MM-DDTHH:MM` (seconds optional): positions strictly before it (a day: ' +
        'start 2026-03-02T00:00, end 2026-03-03T00:00). Absent: up to the last one.',
    }),
    continuationToken: z
      .string()
      .optional()
      .meta({ description: 'From the previous page; absent: first page' }),
  })
  .meta({ id: 'PositionsQuery' });
export type PositionsQuery = z.output<typeof PositionsQuery>;

/** Spec: "Fields of a technician position: not shown"; designed in the spec's style. */
export const Position = z
  .object({
    timestamp: z.string().meta({ format: 'date-time', description: 'When the device recorded it (UTC)' }),
    latitude: z.number().meta({ description: 'WGS 84 degrees' }),
    longitude: z.number().meta({ description: 'WGS 84 degrees' }),
    accuracy: z.number().nullable().meta({ description: 'Radius of the position, metres' }),
    speed: z.number().nullable().meta({ description: 'Metres per second' }),
    heading: z
      .number()
      .nullable()
      .meta({ description: 'Degrees clockwise from true north, 0 to 360 (excluded)' }),
  })
  .meta({ id: 'TechnicianPosition' });
export type Position = z.infer<typeof Position>;

export const listPositions = endpoint({
  id: 'fieldTracking.technicians.positions',
  method: 'GET',
  path: `${BASE}/technicians/code:{technicianCode}/positions`,
  domain: 'fieldTracking',
  range: 'low',
  summary:
    `Positions of the technician, ${POSITIONS_PAGE_SIZE} a page, sorted by timestamp (one position per ` +
    'technician and timestamp). 404 for a technician unknown or outside your office tree. The ' +
    'continuationToken is bound to the technician and the dates.',
  errorPrefix: FIELD_TRACKING,
  params: z.object({ technicianCode: Code() }),
  query: PositionsQuery,
  responses: { 200: Page(Position).meta({ id: 'TechnicianPositionPage' }) },
  errors: {
    400: [
      FieldTrackingCodes.continuationTokenInvalid,
      FieldTrackingCodes.positionsStartDateInvalid,
      FieldTrackingCodes.positionsEndDateInvalid,
      FieldTrackingCodes.positionsPeriodInvalid,
      FieldTrackingCodes.technicianCodeInvalid,
      FieldTrackingCodes.fieldUnknown,
      FieldTrackingCodes.codeMandatory,
    ],
    404: [FieldTrackingCodes.technicianNotFound],
  },
});

/* ---------------- positions span (extension) ---------------- */

export const PositionsSpan = z
  .object({
    firstTimestamp: z
      .string()
      .nullable()
      .meta({ format: 'date-time', description: 'The first position of the technician (UTC); null: none' }),
    lastTimestamp: z
      .string()
      .nullable()
      .meta({ format: 'date-time', description: 'The last position of the technician (UTC); null: none' }),
  })
  .meta({ id: 'TechnicianPositionsSpan' });
export type PositionsSpan = z.infer<typeof PositionsSpan>;

/**
 * Where a technician's positions start and end, so a client opening on a day without any
 * (today, usually) can go to the last day that has some without walking the days back.
 */
export const positionsSpan = endpoint({
  id: 'fieldTracking.technicians.positions.span',
  method: 'GET',
  path: `${BASE}/technicians/code:{technicianCode}/positions/span`,
  domain: 'fieldTracking',
  range: 'standard',
  summary:
    'The timestamps of the first and last positions of the technician (both null when there is none): one ' +
    'read of the index, e.g. to open on the last day with positions. 404 for a technician unknown or outside ' +
    'your office tree, as the positions list.',
  errorPrefix: FIELD_TRACKING,
  params: z.object({ technicianCode: Code() }),
  query: z.strictObject({}),
  responses: { 200: PositionsSpan },
  errors: {
    400: [
      FieldTrackingCodes.technicianCodeInvalid,
      FieldTrackingCodes.fieldUnknown,
      FieldTrackingCodes.codeMandatory,
    ],
    404: [FieldTrackingCodes.technicianNotFound],
  },
  extension: true,
});

/** The fieldTracking endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const fieldTrackingEndpoints = {
  listPositions,
  positionsSpan,
  listActivitiesByCode,
  listActivitiesByUuid,
  activityTotalsByCode,
  activityTotalsByUuid,
  listActivityTypes,
};
