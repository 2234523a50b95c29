import { z } from 'zod';
import { Code } from '../../../contract/common.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer } from '../../platform/importer.ts';
import { officeIdByCode } from '../../platform/offices.ts';
import { putTechnician } from './service.ts';

const TechnicianRow = z.strictObject({
  technicianCode: Code(CATALOG_CODE_MAX),
  name: z.string().min(1).max(256),
  officeCode: Code(256),
  skills: z.array(Code(CATALOG_CODE_MAX)).max(200).optional(),
  active: z.boolean().optional(),
  home: z
    .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullish(),
});

/** Key `technicians`: field resources, after the offices and the skills they name. */
export const rosteringImporters: Importer[] = [
  importer({
    key: 'technicians',
    order: 300,
    schema: TechnicianRow,
    keyOf: (r) => r.technicianCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `technician ${r.technicianCode}`,
        async ({ officeCode, ...r }) =>
          putTechnician(trx, { ...r, officeId: await officeIdByCode(trx, officeCode) }),
      ),
  }),
];
