/**
 * Field service: the work order model shared by the field tracking, field service, project
 * management, scheduling, diagnostic and webhooks domains (gaps.md: statuses, identity).
 */
import { z } from 'zod';

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
