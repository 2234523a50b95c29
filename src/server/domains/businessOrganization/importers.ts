import { ItemPutBody } from '../../../contract/businessOrganization.ts';
import { Code } from '../../../contract/common.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer } from '../../platform/importer.ts';
import { writeItem } from './service.ts';

/** An element of `items`: the item PUT body plus its `itemCode`. */
const ItemRow = ItemPutBody.extend({ itemCode: Code(CATALOG_CODE_MAX) });

/** Key `items`, written by the same service function as the PUT (custom fields checked the same way). */
export const businessOrganizationImporters: Importer[] = [
  importer({
    key: 'items',
    order: 220,
    schema: ItemRow,
    keyOf: (r) => r.itemCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `item ${r.itemCode}`,
        ({ itemCode, ...body }) => writeItem(trx, itemCode, body),
      ),
  }),
];
