import { z } from 'zod';
import { Code, DateTimeInput } from '../../../contract/common.ts';
import {
  ONE_WORK_ORDER_REF,
  oneWorkOrderRef,
  RecordId,
  WorkOrderRefFields,
} from '../../../contract/fieldService.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer, importScope } from '../../platform/importer.ts';
import { putActivities, putActivityType, putPositions } from './service.ts';

const ActivityTypeRow = z.strictObject({
  activityTypeCode: Code(CATALOG_CODE_MAX),
  name: z.string().min(1).max(256),
});

const ActivityRow = z
  .strictObject({
    activityId: RecordId,
    ...WorkOrderRefFields,
    activityTypeCode: Code(CATALOG_CODE_MAX),
    agentCode: Code(CATALOG_CODE_MAX),
    startTime: DateTimeInput,
    endTime: DateTimeInput,
    billable: z.boolean(),
    validatedAt: DateTimeInput.nullish(),
  })
  .refine(oneWorkOrderRef, ONE_WORK_ORDER_REF)
  .refine((r) => r.endTime >= r.startTime, {
    message: 'endTime must not precede startTime',
    path: ['endTime'],
  });

const PositionRow = z.strictObject({
  technicianCode: Code(CATALOG_CODE_MAX),
  timestamp: DateTimeInput,
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().min(0).max(1_000_000).nullish(),
  speed: z.number().min(0).max(1000).nullish(),
  heading: z.number().min(0).lt(360).nullish(),
});

/**
 * Keys `activityTypes`, `activities` (after the work orders and technicians they name) and
 * `positions` (after the technicians). activities and positions are written in batches.
 */
export const fieldTrackingImporters: Importer[] = [
  importer({
    key: 'activityTypes',
    order: 340,
    schema: ActivityTypeRow,
    keyOf: (r) => r.activityTypeCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `activity type ${r.activityTypeCode}`,
        (r) => putActivityType(trx, r),
      ),
  }),
  importer({
    key: 'activities',
    order: 350,
    schema: ActivityRow,
    keyOf: (r) => r.activityId,
    apply: async (trx, rows) => putActivities(trx, await importScope(trx), rows),
  }),
  importer({
    key: 'positions',
    order: 370,
    schema: PositionRow,
    // Two spellings of one instant (with or without seconds) name one position.
    keyOf: (r) => `${r.technicianCode} ${r.timestamp.toISOString()}`,
    apply: (trx, rows) => putPositions(trx, rows),
  }),
];
