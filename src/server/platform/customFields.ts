import {
  type CustomFieldDefinition,
  type CustomFieldEntity,
  type CustomFields,
  foldCode,
} from '../../contract/common.ts';
import { presentType, validateCustomField } from '../../contract/customFields.ts';
import { derivedCode } from '../../contract/errors.ts';
import type { Db } from '../db/index.ts';
import { ApiError, type ErrorItem } from './errors.ts';

/** The custom-field definitions of one entity (configuration of the instance). */
export async function customFieldDefinitions(
  db: Db,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinition[]> {
  const rows = await db
    .selectFrom('custom_field_definitions')
    .selectAll()
    .where('entity', '=', entity)
    .orderBy('code')
    .execute();
  return rows.map((r) => ({
    entity, // every row's: the query filters on it
    code: r.code,
    label: r.label,
    type: r.type as CustomFieldDefinition['type'],
    mandatory: r.mandatory,
    values: (typeof r.values === 'string' ? JSON.parse(r.values) : r.values) ?? null,
  }));
}

/**
 * Checks a body's `customFields` against the entity's definitions (spec: Custom fields)
 * and returns it with codes uppercased, ready to store. Refusals, all with status 400:
 * `<prefix>.custom.field.unknown` for a code no definition names, `<prefix>.custom.field.mandatory`
 * for a mandatory field missing, `<prefix>.custom.field.invalid` for a value that does not hold
 * exactly one property of the defined type with a valid content.
 */
export async function checkCustomFields(
  db: Db,
  entity: CustomFieldEntity,
  prefix: string,
  input: CustomFields | null | undefined,
): Promise<CustomFields> {
  const defs = new Map((await customFieldDefinitions(db, entity)).map((d) => [d.code, d]));
  const fields: CustomFields = {};
  const errors: ErrorItem[] = [];
  const reported = new Set<string>();
  for (const [rawCode, value] of Object.entries(input ?? {})) {
    // ASCII folding only (contract/common.ts): `ſegment` is not SEGMENT.
    const code = foldCode(rawCode);
    const def = defs.get(code);
    if (!def) {
      errors.push({
        code: derivedCode.customFieldUnknown(prefix),
        message: `Unknown custom field ${rawCode}`,
      });
      continue;
    }
    const properties = Object.values(value ?? {}).filter((v) => v !== undefined).length;
    const problem =
      properties === 1 ? validateCustomField(def, value) : presentType(value) ? 'typeMismatch' : 'mandatory';
    if (problem === 'mandatory' && properties === 0 && !def.mandatory) continue;
    if (problem) reported.add(code);
    if (problem === 'mandatory') {
      errors.push({
        code: derivedCode.customFieldMandatory(prefix),
        message: `Custom field ${code} is mandatory`,
      });
    } else if (problem) {
      errors.push({
        code: derivedCode.customFieldInvalid(prefix),
        message: `Custom field ${code} must hold exactly one valid ${def.type}${def.values ? ` (one of ${def.values.join(', ')})` : ''}`,
      });
    } else fields[code] = value;
  }
  for (const def of defs.values()) {
    if (def.mandatory && !(def.code in fields) && !reported.has(def.code))
      errors.push({
        code: derivedCode.customFieldMandatory(prefix),
        message: `Custom field ${def.code} is mandatory`,
      });
  }
  if (errors.length > 0) throw new ApiError(400, dedupe(errors));
  return fields;
}

function dedupe(errors: ErrorItem[]): ErrorItem[] {
  const seen = new Map<string, ErrorItem>();
  for (const e of errors) {
    const prev = seen.get(e.code);
    seen.set(e.code, prev ? { code: e.code, message: `${prev.message}; ${e.message}` } : e);
  }
  return [...seen.values()];
}
