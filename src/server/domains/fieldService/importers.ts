import { z } from 'zod';
import { Code, DateTimeInput } from '../../../contract/common.ts';
import { WorkOrderLocation, WorkOrderStatus } from '../../../contract/fieldService.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer } from '../../platform/importer.ts';
import { officeIdByCode } from '../../platform/offices.ts';
import { putWorkOrder, putWorkOrderType } from './service.ts';

const WorkOrderTypeRow = z.strictObject({
  workOrderTypeCode: Code(CATALOG_CODE_MAX),
  name: z.string().min(1).max(256),
  durationMinutes: z.number().int().min(1).max(100_000),
  skills: z.array(Code(CATALOG_CODE_MAX)).max(200).optional(),
});

const WorkOrderRow = z.strictObject({
  uuid: z.uuid().optional(),
  workOrderCode: Code(CATALOG_CODE_MAX),
  workOrderTypeCode: Code(CATALOG_CODE_MAX),
  status: WorkOrderStatus,
  officeCode: Code(256),
  customerCode: Code().nullish(),
  siteCode: Code().nullish(),
  assetCode: Code().nullish(),
  location: WorkOrderLocation.nullish(),
  description: z.string().max(10000).nullish(),
  technicianCode: Code(CATALOG_CODE_MAX).nullish(),
  scheduledStart: DateTimeInput.nullish(),
});

/** Keys `workOrderTypes` and `workOrders` (after the technicians they name). */
export const fieldServiceImporters: Importer[] = [
  importer({
    key: 'workOrderTypes',
    order: 310,
    schema: WorkOrderTypeRow,
    keyOf: (r) => r.workOrderTypeCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `work order type ${r.workOrderTypeCode}`,
        (r) => putWorkOrderType(trx, r),
      ),
  }),
  importer({
    key: 'workOrders',
    order: 320,
    schema: WorkOrderRow,
    // Without a uuid, an element names the live work order of its code.
    keyOf: (r) => (r.uuid ? `uuid ${r.uuid.toLowerCase()}` : `live ${r.workOrderCode}`),
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `work order ${r.uuid ?? r.workOrderCode}`,
        async ({ officeCode, ...r }) =>
          putWorkOrder(trx, {
            ...r,
            uuid: r.uuid?.toLowerCase(),
            officeId: await officeIdByCode(trx, officeCode),
          }),
      ),
  }),
];
