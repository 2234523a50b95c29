/**
 * Field service: the work order model shared by the field tracking, field service, project
 * management, scheduling, diagnostic and webhooks domains (gaps.md: statuses, identity).
 */
import { z } from 'zod';
import { type Endpoint, endpoint } from './endpoint.ts';
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

/* ---------------- work order types (extension for the planner) ---------------- */

export const WORK_ORDER_TYPES = 'fieldService.workOrderTypes';
export const WORK_ORDER_TYPES_PAGE_SIZE = 500;

export const WorkOrderTypeCodes = {
  continuationTokenInvalid: derivedCode.continuationTokenInvalid('fieldService'),
  fieldUnknown: derivedCode.fieldUnknown(WORK_ORDER_TYPES),
} as const;

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
    `Work order types (instance-wide, loaded by import) with their duration and needed skills, sorted by code, ` +
    `${WORK_ORDER_TYPES_PAGE_SIZE} a page: what the planner offers for a slot search by type.`,
  errorPrefix: WORK_ORDER_TYPES,
  query: z.strictObject({ continuationToken: z.string().optional() }),
  responses: {
    200: z
      .object({ continuationToken: z.string().nullable(), data: z.array(WorkOrderType) })
      .meta({ id: 'WorkOrderTypePage' }),
  },
  errors: { 400: [WorkOrderTypeCodes.continuationTokenInvalid, WorkOrderTypeCodes.fieldUnknown] },
  extension: true,
});

export const fieldServiceEndpoints: Endpoint[] = [listWorkOrderTypes];
