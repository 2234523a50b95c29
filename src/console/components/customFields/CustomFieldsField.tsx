import { Fieldset } from '@mantine/core';
import { Controller, get, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import { CustomFieldsEditor } from './CustomFieldsEditor.tsx';

/**
 * The `customFields` of a react-hook-form form in a fieldset: the editor, with the error of
 * each custom field (`customFields.<CODE>`) on its input and the editor's own (`customFields.root`).
 */
export function CustomFieldsField({ definitions }: { definitions: readonly CustomFieldDefinition[] }) {
  const { t } = useTranslation('customFields');
  const { control, formState } = useFormContext();
  const errs = (get(formState.errors, 'customFields') ?? {}) as Record<string, { message?: string }>;
  const byCode: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(errs))
    if (k !== 'root' && v && typeof v === 'object') byCode[k] = v.message;
  const root = errs.root?.message;
  return (
    <Fieldset legend={t('legend')}>
      <Controller
        control={control}
        name="customFields"
        render={({ field }) => (
          <CustomFieldsEditor
            definitions={definitions}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            errors={byCode}
            error={root}
          />
        )}
      />
    </Fieldset>
  );
}
