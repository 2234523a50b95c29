/**
 * The inputs of the item form, in four groups: identification, billing, serial numbers,
 * custom fields. Each input shows its constraint (hint, max length, range) and its error
 * (from the schema, or a service code mapped by ../errorFields.ts).
 */
import {
  Autocomplete,
  Fieldset,
  Grid,
  NumberInput,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import { CodeInput } from '../../../components/records/RecordParts.tsx';
import { type ItemForm, splitVatInput } from '../itemForm.ts';
import { CATALOG_CODE_MAX, MAX_VAT_RATES } from '../model.ts';
import { SerialPatternFields } from './SerialPatternFields.tsx';
import { useItemFieldError as useErr } from './useItemFieldError.ts';

export function ItemFields({
  creating,
  categories,
  definitions,
}: {
  creating: boolean;
  categories: readonly string[];
  definitions: readonly CustomFieldDefinition[];
}) {
  const { t } = useTranslation('catalog');
  return (
    <>
      <Fieldset legend={t('item.sections.identification')}>
        <ItemIdentificationFields creating={creating} categories={categories} />
      </Fieldset>

      <Fieldset legend={t('item.sections.billing')}>
        <ItemBillingFields />
      </Fieldset>

      <Fieldset legend={t('item.sections.serials')}>
        <SerialPatternFields />
      </Fieldset>

      <CustomFieldsField definitions={definitions} />
    </>
  );
}

/** Code and name, the category, references, description, and whether the item is active. */
function ItemIdentificationFields({
  creating,
  categories,
}: {
  creating: boolean;
  categories: readonly string[];
}) {
  const { t } = useTranslation('catalog');
  const { register } = useFormContext<ItemForm>();
  const err = useErr();
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <CodeInput
          creating={creating}
          maxChars={CATALOG_CODE_MAX}
          {...register('code')}
          error={err('code')}
          data-testid="item-code"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <TextInput
          label={t('item.fields.name')}
          withAsterisk
          maxLength={10000}
          {...register('name')}
          error={err('name')}
          data-testid="item-name"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <CategoryInput categories={categories} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput
          label={t('item.fields.reference')}
          maxLength={200}
          {...register('reference')}
          error={err('reference')}
          data-testid="item-reference"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput
          label={t('item.fields.barCode')}
          maxLength={200}
          {...register('barCode')}
          error={err('barCode')}
          data-testid="item-barcode"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <TextInput
          label={t('item.fields.manufacturer')}
          maxLength={200}
          {...register('manufacturer')}
          error={err('manufacturer')}
          data-testid="item-manufacturer"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 8 }}>
        <Textarea
          label={t('item.fields.description')}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={10000}
          {...register('description')}
          error={err('description')}
          data-testid="item-description"
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <ActiveSwitch />
      </Grid.Col>
    </Grid>
  );
}

/** Free text, suggesting the categories the catalog already uses. */
function CategoryInput({ categories }: { categories: readonly string[] }) {
  const { t } = useTranslation('catalog');
  const { field } = useController<ItemForm, 'category'>({ name: 'category' });
  const err = useErr();
  return (
    <Autocomplete
      label={t('item.fields.category')}
      description={t('item.hints.category')}
      data={[...categories]}
      maxLength={200}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      ref={field.ref}
      error={err('category')}
      data-testid="item-category"
    />
  );
}

function ActiveSwitch() {
  const { t } = useTranslation('catalog');
  const { field } = useController<ItemForm, 'active'>({ name: 'active' });
  const err = useErr();
  return (
    <Switch
      label={t('item.fields.active')}
      description={t('item.hints.active')}
      checked={field.value}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
      ref={field.ref}
      error={err('active')}
      data-testid="item-active"
    />
  );
}

/** Unit, unit price, VAT rates and whether the price is fixed. */
function ItemBillingFields() {
  const { t } = useTranslation('catalog');
  const { register } = useFormContext<ItemForm>();
  const err = useErr();
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <TextInput
          label={t('item.fields.unit')}
          description={t('item.hints.unit')}
          maxLength={50}
          {...register('unit')}
          error={err('unit')}
          data-testid="item-unit"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <UnitPriceInput />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <VatRatesInput />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 2 }}>
        <FixedPriceSwitch />
      </Grid.Col>
    </Grid>
  );
}

function UnitPriceInput() {
  const { t } = useTranslation('catalog');
  const { field } = useController<ItemForm, 'unitPrice'>({ name: 'unitPrice' });
  const err = useErr();
  return (
    <NumberInput
      label={t('item.fields.unitPrice')}
      description={t('item.hints.unitPrice')}
      min={0}
      decimalScale={2}
      fixedDecimalScale
      clampBehavior="none"
      thousandSeparator=" "
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      ref={field.ref}
      error={err('unitPrice')}
      data-testid="item-unit-price"
    />
  );
}

/** Typed or pasted rates are split on `;` and spaces, and capped at MAX_VAT_RATES. */
function VatRatesInput() {
  const { t } = useTranslation('catalog');
  const { field } = useController<ItemForm, 'vatRates'>({ name: 'vatRates' });
  const err = useErr();
  return (
    <TagsInput
      label={t('item.fields.vatRates')}
      description={t('item.hints.vatRates', { max: MAX_VAT_RATES })}
      placeholder={field.value.length < MAX_VAT_RATES ? t('item.hints.vatRatesPlaceholder') : undefined}
      maxTags={MAX_VAT_RATES}
      splitChars={[';', ' ']}
      acceptValueOnBlur
      value={field.value}
      onChange={(v) => field.onChange(v.flatMap(splitVatInput).slice(0, MAX_VAT_RATES))}
      onBlur={field.onBlur}
      ref={field.ref}
      error={err('vatRates', ...field.value.map((_, i) => `vatRates.${i}`))}
      data-testid="item-vat-rates"
    />
  );
}

function FixedPriceSwitch() {
  const { t } = useTranslation('catalog');
  const { field } = useController<ItemForm, 'fixedPrice'>({ name: 'fixedPrice' });
  const err = useErr();
  return (
    <Switch
      mt={{ base: 0, sm: 30 }}
      label={t('item.fields.fixedPrice')}
      checked={field.value}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
      ref={field.ref}
      error={err('fixedPrice')}
      data-testid="item-fixed-price"
    />
  );
}
