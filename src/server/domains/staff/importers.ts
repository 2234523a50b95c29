import type { z } from 'zod';
import { Code } from '../../../contract/common.ts';
import { CATALOG_CODE_MAX, SkillPutBody } from '../../../contract/staff.ts';
import type { Importer } from '../../cli/importer.ts';
import type { Db } from '../../db/index.ts';
import type { Upserted } from './queries.ts';
import { putCharacteristic, putSkill } from './service.ts';

const SkillRow = SkillPutBody.extend({ skillCode: Code(CATALOG_CODE_MAX) });
const CharacteristicRow = SkillPutBody.extend({ characteristicCode: Code(CATALOG_CODE_MAX) });

/**
 * Applies rows one by one through the same service function as the API. A code given
 * twice (after uppercasing) is refused: the file would not be idempotent otherwise.
 */
export async function applyAll<T>(
  rows: T[],
  codeOf: (row: T) => string,
  what: string,
  put: (row: T) => Promise<Upserted>,
): Promise<{ created: number; updated: number }> {
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(codeOf(row))) throw new Error(`${what} ${codeOf(row)} appears twice`);
    seen.add(codeOf(row));
  }
  const counts = { created: 0, updated: 0 };
  for (const row of rows) {
    const result = await put(row);
    if (result !== 'unchanged') counts[result]++;
  }
  return counts;
}

const skills: Importer<z.output<typeof SkillRow>> = {
  key: 'skills',
  order: 200,
  schema: SkillRow,
  apply: (trx: Db, rows) =>
    applyAll(
      rows,
      (r) => r.skillCode,
      'skill',
      ({ skillCode, ...rest }) => putSkill(trx, { code: skillCode, ...rest }),
    ),
};

const characteristics: Importer<z.output<typeof CharacteristicRow>> = {
  key: 'characteristics',
  order: 210,
  schema: CharacteristicRow,
  apply: (trx: Db, rows) =>
    applyAll(
      rows,
      (r) => r.characteristicCode,
      'characteristic',
      ({ characteristicCode, ...rest }) => putCharacteristic(trx, { code: characteristicCode, ...rest }),
    ),
};

/** Keys of the import file owned by this domain (see cli/importer.ts). */
export const staffImporters: Importer[] = [skills, characteristics] as Importer[];
