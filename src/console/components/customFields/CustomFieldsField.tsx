import { Fieldset } from '@mantine/core';
import { useRef } from 'react';
import { Controller, get, useFormContext, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import { isRecord } from '../../../contract/guards.ts';
import { errorMessageAt, hasMessage } from '../forms/fieldErrors.ts';
import { CustomFieldsEditor } from './CustomFieldsEditor.tsx';
import { customFieldErrorMessage } from './customFieldsSchema.ts';
import { validateCustomFields } from './customFieldValues.ts';

/**
 * The `customFields` of a react-hook-form form in a fieldset: the editor, with the error of
 * each custom field (`customFields.<CODE>`) on its input and the editor's own (`customFields.root`).
 *
 * The definitions' rules (mandatory, type, a date that exists, a listed value) are checked
 * here when the editor is left, and at every change after that, like the form's other
 * inputs; the form's schema checks them again on submit. They are applied directly, not
 * through react-hook-form's blur validation of the Controller: that one runs the schema
 * asynchronously and its outcome is dropped or overwritten when the editor renders again
 * meanwhile, which it always does (the errors then never showed before a submit).
 */
export function CustomFieldsField({ definitions }: { definitions: readonly CustomFieldDefinition[] }) {
  const { t } = useTranslation('customFields');
  const { control, setError, clearErrors, getValues } = useFormContext();
  const formState = useFormState({ control, name: 'customFields' });
  const left = useRef(false);
  const errs: unknown = get(formState.errors, 'customFields');
  const byCode: Record<string, string | undefined> = {};
  if (isRecord(errs))
    for (const [k, v] of Object.entries(errs)) if (k !== 'root' && hasMessage(v)) byCode[k] = v.message;
  const root = errorMessageAt(formState.errors, 'customFields.root');

  const check = (value: CustomFields | null | undefined) => {
    const found = validateCustomFields(definitions, value);
    for (const def of definitions) {
      const key = found[def.code];
      const name = `customFields.${def.code}`;
      if (key) setError(name, { type: 'custom', message: customFieldErrorMessage(key) });
      else if (get(formState.errors, name)) clearErrors(name);
    }
  };

  return (
    <Fieldset legend={t('legend')}>
      <Controller
        control={control}
        name="customFields"
        render={({ field }) => (
          <CustomFieldsEditor
            definitions={definitions}
            value={field.value}
            onChange={(next) => {
              field.onChange(next);
              if (left.current) check(next);
            }}
            onBlur={() => {
              left.current = true;
              check(getValues('customFields'));
            }}
            errors={byCode}
            error={root}
          />
        )}
      />
    </Fieldset>
  );
}
