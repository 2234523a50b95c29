import { z } from 'zod';
import { hasAtMostTwoDecimals, UNIT_PRICE_MAX } from '../../../contract/businessOrganization.ts';
import { Code, DateTimeInput } from '../../../contract/common.ts';
import {
  InvoiceMode,
  ONE_WORK_ORDER_REF,
  oneWorkOrderRef,
  RecordId,
  UsedItemKind,
  WorkOrderLocation,
  WorkOrderRefFields,
  WorkOrderStatus,
} from '../../../contract/fieldService.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer, importOffice, importScope } from '../../platform/importer.ts';
import { putUsedItems, putWorkOrder, putWorkOrderType } from './service.ts';

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

/** At most 3 decimals (thousandths of a unit), refused rather than rounded. */
const hasAtMostThreeDecimals = (n: number) => Math.round(n * 1000) / 1000 === n;

const UsedItemRow = z
  .strictObject({
    usedItemId: RecordId,
    ...WorkOrderRefFields,
    kind: UsedItemKind,
    itemCode: Code(CATALOG_CODE_MAX).nullish(),
    label: z.string().min(1).max(1000).nullish(),
    quantity: z.number().gt(0).max(99_999_999_999).refine(hasAtMostThreeDecimals, 'at most 3 decimals'),
    unit: z.string().max(50).nullish(),
    unitPrice: z
      .number()
      .min(0)
      .max(UNIT_PRICE_MAX)
      .refine(hasAtMostTwoDecimals, 'at most 2 decimals')
      .nullish(),
    invoiceMode: InvoiceMode,
    serialNumber: z.string().min(1).max(200).nullish(),
    technicianCode: Code(CATALOG_CODE_MAX).nullish(),
    lastUpdate: DateTimeInput.nullish(),
  })
  .refine(oneWorkOrderRef, ONE_WORK_ORDER_REF)
  .refine((r) => r.kind === 'onTheFly' || !!r.itemCode, {
    message: 'a part or labour item names its catalog itemCode',
    path: ['itemCode'],
  })
  .refine((r) => r.kind !== 'onTheFly' || !r.itemCode, {
    message: 'an onTheFly item has no itemCode (it is not in the catalog)',
    path: ['itemCode'],
  })
  .refine((r) => r.kind !== 'onTheFly' || !!r.label, {
    message: 'an onTheFly item needs a label',
    path: ['label'],
  });

/** Keys `workOrderTypes`, `workOrders` (after the technicians they name) and `usedItems`. */
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
            officeId: await importOffice(trx, officeCode),
          }),
      ),
  }),
  importer({
    key: 'usedItems',
    // After the items of the catalog, the technicians and the work orders they name.
    order: 360,
    schema: UsedItemRow,
    keyOf: (r) => r.usedItemId,
    apply: async (trx, rows) => putUsedItems(trx, await importScope(trx), rows),
  }),
];
