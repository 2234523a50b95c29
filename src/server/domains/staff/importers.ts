import { Code } from '../../../contract/common.ts';
import { CATALOG_CODE_MAX, SkillPutBody } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer } from '../../platform/importer.ts';
import { putCharacteristic, writeSkill } from './service.ts';

const SkillRow = SkillPutBody.extend({ skillCode: Code(CATALOG_CODE_MAX) });
const CharacteristicRow = SkillPutBody.extend({ characteristicCode: Code(CATALOG_CODE_MAX) });

/** Keys `skills` and `characteristics`, written by the same service functions as the API. */
export const staffImporters: Importer[] = [
  importer({
    key: 'skills',
    order: 200,
    schema: SkillRow,
    keyOf: (r) => r.skillCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `skill ${r.skillCode}`,
        ({ skillCode, ...rest }) => writeSkill(trx, { code: skillCode, ...rest }),
      ),
  }),
  importer({
    key: 'characteristics',
    order: 210,
    schema: CharacteristicRow,
    keyOf: (r) => r.characteristicCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `characteristic ${r.characteristicCode}`,
        ({ characteristicCode, ...rest }) => putCharacteristic(trx, { code: characteristicCode, ...rest }),
      ),
  }),
];
