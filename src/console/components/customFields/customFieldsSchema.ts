/**
 * Adds the entity's custom-field rules to a form schema: the contract's `CustomFields`
 * schema only knows the shape; which codes exist, which are mandatory and which values a
 * dropdown allows come from the definitions endpoint at run time.
 */
import type { z } from 'zod';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import { validateCustomFields } from './customFieldValues.ts';

/** i18n key of an editor error, usable as a zod issue message. */
export const customFieldErrorMessage = (key: string) => `customFields:errors.${key}`;

export function withCustomFieldRules<S extends z.ZodType>(
  schema: S,
  definitions: readonly CustomFieldDefinition[],
  field = 'customFields',
) {
  return schema.superRefine(
    (value, ctx) => {
      const fields = (value as Record<string, unknown> | null)?.[field] as CustomFields | null | undefined;
      for (const [code, key] of Object.entries(validateCustomFields(definitions, fields))) {
        ctx.addIssue({ code: 'custom', path: [field, code], message: customFieldErrorMessage(key) });
      }
    },
    // Also when other fields have issues: the form shows every problem at once.
    { when: (p) => typeof p.value === 'object' && p.value !== null },
  );
}
