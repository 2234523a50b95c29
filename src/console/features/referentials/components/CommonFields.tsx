import { Fieldset, Grid, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessageAt } from '../../../components/forms/fieldErrors.ts';
import { CodeInput } from '../../../components/records/RecordParts.tsx';
import type { ReferentialEntity } from '../paths.ts';
import { OfficeSelect } from './OfficeSelect.tsx';
import { ParentPicker } from './ParentPicker.tsx';

export function useFieldError() {
  const { formState } = useFormContext();
  return (path: string): string | undefined => errorMessageAt(formState.errors, path);
}

/** Code (editable on creation only) and name. */
export function CodeAndName({
  creating,
  nameRequired = true,
}: {
  creating: boolean;
  nameRequired?: boolean;
}) {
  const { t } = useTranslation('referentials');
  const { register } = useFormContext();
  const err = useTranslatedError();
  return (
    <>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <CodeInput creating={creating} maxChars={10000} {...register('code')} error={err('code')} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <TextInput
          label={t('fields.name')}
          withAsterisk={nameRequired}
          {...register('name')}
          error={err('name')}
        />
      </Grid.Col>
    </>
  );
}

/** Field errors may be i18n keys (`referentials:validation.selfParent`) or plain messages. */
export function useTranslatedError() {
  const { t } = useTranslation('referentials');
  const raw = useFieldError();
  return (path: string) => {
    const m = raw(path);
    return m ? t(m, { defaultValue: m }) : undefined;
  };
}

export function OfficeField({ description }: { description?: string }) {
  const { t } = useTranslation('referentials');
  const { control } = useFormContext();
  const err = useTranslatedError();
  return (
    <Controller
      control={control}
      name="officeCode"
      render={({ field }) => (
        <OfficeSelect
          label={t('fields.office')}
          description={description ?? t('fields.officeHint')}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v)}
          onBlur={field.onBlur}
          clearable
          error={err('officeCode')}
          data-testid="office-select"
        />
      )}
    />
  );
}

export function ParentField({
  entity,
  name,
  label,
  self,
  description,
}: {
  entity: ReferentialEntity;
  name: string;
  label: string;
  self?: string;
  description?: string;
}) {
  const { control } = useFormContext();
  const err = useTranslatedError();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <ParentPicker
          entity={entity}
          self={self}
          label={label}
          description={description}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          error={err(name)}
          data-testid={`picker-${name}`}
        />
      )}
    />
  );
}

export function DescriptionField({ max }: { max: number }) {
  const { t } = useTranslation('referentials');
  const { register } = useFormContext();
  const err = useTranslatedError();
  return (
    <Textarea
      label={t('fields.description')}
      autosize
      minRows={2}
      maxRows={8}
      maxLength={max}
      {...register('description')}
      error={err('description')}
    />
  );
}

/** A form's General section: code and name first, the description last, the entity's own fields between. */
export function GeneralFields({
  creating,
  descriptionMax,
  children,
}: {
  creating: boolean;
  descriptionMax: number;
  children: ReactNode;
}) {
  const { t } = useTranslation('referentials');
  return (
    <Fieldset legend={t('detail.general')}>
      <Grid gap="sm">
        <CodeAndName creating={creating} />
        {children}
        <Grid.Col span={12}>
          <DescriptionField max={descriptionMax} />
        </Grid.Col>
      </Grid>
    </Fieldset>
  );
}

/** The record's parent of its own kind: never itself, and the depth rule as its hint. */
export function HierarchyParentField({
  entity,
  name,
  label,
  self,
}: {
  entity: ReferentialEntity;
  name: string;
  label: string;
  self?: string;
}) {
  const { t } = useTranslation('referentials');
  return (
    <Grid.Col span={{ base: 12, sm: 6 }}>
      <ParentField
        entity={entity}
        name={name}
        label={label}
        self={self}
        description={t('hierarchy.depthHint')}
      />
    </Grid.Col>
  );
}
