import { Alert, Fieldset, Grid, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import type { FieldsProps } from '../forms.tsx';
import {
  GeneralFields,
  HierarchyParentField,
  OfficeField,
  ParentField,
  useTranslatedError,
} from './CommonFields.tsx';

/**
 * Fields of the asset PUT body. Site and office changes are a transfer, which the service
 * accepts only for an asset without sub-assets: said up front, and again inline when refused.
 */
export function AssetFields({ creating, self, definitions, childCount }: FieldsProps) {
  const { t } = useTranslation('referentials');
  const { register } = useFormContext();
  const err = useTranslatedError();
  const blocked = !creating && (childCount ?? 0) > 0;
  return (
    <Stack gap="md">
      <GeneralFields creating={creating} descriptionMax={10000}>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <TextInput
            label={t('fields.serialNumber')}
            {...register('serialNumber')}
            error={err('serialNumber')}
            data-testid="serial-number"
          />
        </Grid.Col>
        <HierarchyParentField
          entity="asset"
          name="parentAssetCode"
          label={t('fields.parentAsset')}
          self={self}
        />
      </GeneralFields>
      <Fieldset legend={creating ? t('assets.locationTitle') : t('assets.transferTitle')}>
        <Stack gap="sm">
          {!creating && (
            <Alert
              variant="light"
              color={blocked ? 'orange' : 'blue'}
              icon={<IconInfoCircle size={18} />}
              p="xs"
            >
              {blocked ? t('assets.transferBlocked', { count: childCount }) : t('assets.transferHint')}
            </Alert>
          )}
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <ParentField entity="site" name="siteCode" label={t('fields.site')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <ParentField
                entity="customer"
                name="customerCode"
                label={t('fields.customer')}
                description={t('assets.customerHint')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <OfficeField description={t('assets.officeHint')} />
            </Grid.Col>
          </Grid>
        </Stack>
      </Fieldset>
      <CustomFieldsField definitions={definitions} />
    </Stack>
  );
}
