import { Fieldset, Grid, Textarea, TextInput } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldError } from './CommonFields.tsx';
import { CountrySelect } from './CountrySelect.tsx';

/**
 * `addressDetails` of a customer (`addressDetails`) or a site (`location.addressDetails`):
 * city 1..256 required, zip code up to 20, country ISO 3166-1 alpha-2; the street address
 * is required for a site only.
 */
export function AddressFields({ prefix, addressRequired }: { prefix: string; addressRequired: boolean }) {
  const { t } = useTranslation('referentials');
  const { control, register } = useFormContext();
  const err = useFieldError();
  return (
    <Fieldset legend={t('address.title')}>
      <Grid gap="sm">
        <Grid.Col span={12}>
          <Textarea
            label={t('address.address')}
            withAsterisk={addressRequired}
            autosize
            minRows={1}
            maxRows={4}
            {...register(`${prefix}.address`)}
            error={err(`${prefix}.address`)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <TextInput
            label={t('address.zipCode')}
            maxLength={20}
            {...register(`${prefix}.zipCode`)}
            error={err(`${prefix}.zipCode`)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <TextInput
            label={t('address.city')}
            withAsterisk
            maxLength={256}
            {...register(`${prefix}.city`)}
            error={err(`${prefix}.city`)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Controller
            control={control}
            name={`${prefix}.country`}
            render={({ field }) => (
              <CountrySelect
                label={t('address.country')}
                value={field.value ?? null}
                onChange={(v) => field.onChange(v)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={err(`${prefix}.country`)}
              />
            )}
          />
        </Grid.Col>
      </Grid>
    </Fieldset>
  );
}
