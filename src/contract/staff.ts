/**
 * Staff: skills and characteristics (spec endpoints 7-9). Both are catalog data of the
 * tenant, not office-scoped (see CATALOG_SCOPE). The spec shows no field beyond the code; we add a
 * name and a description, in the style of the other resources.
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import { Code, Page, PageQuery, requiredText } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

/**
 * Why the catalog is not office-scoped, said in the OpenAPI summaries of its endpoints:
 * an item, skill or characteristic means the same thing in every office of a tenant (its
 * work orders name the same ones), like the custom-field definitions. One list serves the
 * tenant, so a branch writing it would change it for every office: writes are kept to the
 * tenant's root office. Another tenant has a catalog of its own (migration 090).
 */
export const CATALOG_SCOPE =
  "The catalog (items, skills, characteristics) is one list per tenant (a root office and the offices below it), not scoped by office: an item or skill means the same in every office of the tenant and its work orders name the same ones, like the custom-field definitions. Every application of the tenant reads all of it, none of another tenant's; only applications and users of the tenant's root office write it, others get 403 access.forbiden.";

/** Codes of skills, characteristics and items: case-insensitive, uppercase, 1..200. */
export const CATALOG_CODE_MAX = 200;

export const SkillPutBody = z
  .strictObject({
    name: requiredText(200),
    description: z.string().max(10000).nullish(),
  })
  .meta({ id: 'SkillPutBody' });
export type SkillPutBody = z.input<typeof SkillPutBody>;

export const Skill = z
  .object({ skillCode: z.string(), name: z.string(), description: z.string().nullable() })
  .meta({ id: 'Skill' });
export type Skill = z.infer<typeof Skill>;

export const Characteristic = z
  .object({ characteristicCode: z.string(), name: z.string(), description: z.string().nullable() })
  .meta({ id: 'Characteristic' });
export type Characteristic = z.infer<typeof Characteristic>;

export const SkillPage = Page(Skill).meta({ id: 'SkillPage' });
export const CharacteristicPage = Page(Characteristic).meta({ id: 'CharacteristicPage' });

export const SKILLS_PAGE_SIZE = 500;
export const CHARACTERISTICS_PAGE_SIZE = 500;

export const SKILL_ERROR_PREFIX = 'staff.skill';
const skill = SKILL_ERROR_PREFIX;
const characteristic = 'staff.characteristic';

/** Every code the staff endpoints answer with (besides the common ones). */
export const StaffCodes = {
  skillCodeMandatory: `${skill}.code.mandatory`,
  skillCodeInvalid: derivedCode.invalid(skill, 'skillCode'),
  skillNameMandatory: derivedCode.mandatory(skill, 'name'),
  skillNameInvalid: derivedCode.invalid(skill, 'name'),
  skillDescriptionInvalid: derivedCode.invalid(skill, 'description'),
  skillInvalidJson: derivedCode.invalidJson(skill),
  skillFieldUnknown: derivedCode.fieldUnknown(skill),
  /** A skill's history: no skill of this code in the tenant's catalog. */
  skillNotFound: `${skill}.not.found`,
  continuationTokenInvalid: derivedCode.continuationTokenInvalid('staff'),
} as const;

export const putSkill = endpoint({
  id: 'staff.skills.put',
  versioned: true,
  method: 'PUT',
  path: '/eTech/rest/ws/staff/v1/skills/code:{skillCode}',
  domain: 'staff',
  range: 'standard',
  summary: `Create the skill if the code does not exist, otherwise update it. ${CATALOG_SCOPE}`,
  errorPrefix: skill,
  params: z.object({ skillCode: Code(CATALOG_CODE_MAX) }),
  body: SkillPutBody,
  responses: { 201: undefined, 204: undefined },
  errors: {
    400: [
      StaffCodes.skillCodeMandatory,
      StaffCodes.skillCodeInvalid,
      StaffCodes.skillNameMandatory,
      StaffCodes.skillNameInvalid,
      StaffCodes.skillDescriptionInvalid,
      StaffCodes.skillInvalidJson,
      StaffCodes.skillFieldUnknown,
    ],
  },
});

export const listSkills = endpoint({
  id: 'staff.skills.list',
  method: 'GET',
  path: '/eTech/rest/ws/staff/v1/skills',
  domain: 'staff',
  range: 'standard',
  summary: `Skills, ${SKILLS_PAGE_SIZE} per page, sorted by code. ${CATALOG_SCOPE}`,
  errorPrefix: skill,
  query: PageQuery,
  responses: { 200: SkillPage },
  errors: { 400: [StaffCodes.continuationTokenInvalid] },
});

export const listCharacteristics = endpoint({
  id: 'staff.characteristics.list',
  method: 'GET',
  path: '/eTech/rest/ws/staff/v1/characteristics',
  domain: 'staff',
  range: 'standard',
  summary: `Characteristics (read-only, loaded by import), ${CHARACTERISTICS_PAGE_SIZE} per page, sorted by code. ${CATALOG_SCOPE}`,
  errorPrefix: characteristic,
  query: PageQuery,
  responses: { 200: CharacteristicPage },
  errors: { 400: [StaffCodes.continuationTokenInvalid] },
});

/** The staff endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const getSkillHistory = historyEndpoint({
  id: 'staff.skills.history',
  domain: 'staff',
  recordPath: '/eTech/rest/ws/staff/v1/skills/code:{skillCode}',
  errorPrefix: skill,
  params: z.object({ skillCode: Code(CATALOG_CODE_MAX) }),
  notFound: [StaffCodes.skillNotFound],
  continuationTokenInvalid: StaffCodes.continuationTokenInvalid,
  label: 'a skill',
});

export const staffEndpoints = {
  putSkill,
  getSkillHistory,
  listSkills,
  listCharacteristics,
};
