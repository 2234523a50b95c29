import type { z } from 'zod';
import { ItemPutBody } from '../../../contract/businessOrganization.ts';
import { Code } from '../../../contract/common.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import type { Importer } from '../../cli/importer.ts';
import { applyAll } from '../staff/importers.ts';
import { putItem } from './service.ts';

/** An element of `items`: the item PUT body plus its `itemCode`. */
const ItemRow = ItemPutBody.extend({ itemCode: Code(CATALOG_CODE_MAX) });

const items: Importer<z.output<typeof ItemRow>> = {
  key: 'items',
  order: 220,
  schema: ItemRow,
  // Same service function as the PUT (custom fields checked the same way).
  apply: (trx, rows) =>
    applyAll(
      rows,
      (r) => r.itemCode,
      'item',
      ({ itemCode, ...body }) => putItem(trx, itemCode, body),
    ),
};

/** Keys of the import file owned by this domain (see cli/importer.ts). */
export const businessOrganizationImporters: Importer[] = [items] as Importer[];
