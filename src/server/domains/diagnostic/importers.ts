import { z } from 'zod';
import { applyRows, type Importer, importer } from '../../platform/importer.ts';
import { putFlag } from './service.ts';

const FlagRow = z.strictObject({
  flagId: z.number().int().min(0).max(2_147_483_647),
  label: z.string().trim().min(1).max(256),
});

/** Key `flags`: the flags a work order may carry. */
export const diagnosticImporters: Importer[] = [
  importer({
    key: 'flags',
    order: 330,
    schema: FlagRow,
    keyOf: (r) => String(r.flagId),
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `flag ${r.flagId}`,
        (r) => putFlag(trx, r),
      ),
  }),
];
