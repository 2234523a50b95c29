import { Grid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import type { FieldsProps } from '../forms.tsx';
import { AddressFields } from './AddressFields.tsx';
import { GeneralFields, HierarchyParentField, OfficeField, ParentField } from './CommonFields.tsx';
import { ContactFields } from './ContactFields.tsx';
import { GeolocationFields } from './GeolocationFields.tsx';

/** Every field of the site PUT body (spec: Site, without lastUpdate). */
export function SiteFields({ creating, self, definitions }: FieldsProps) {
  const { t } = useTranslation('referentials');
  return (
    <Stack gap="md">
      <GeneralFields creating={creating} descriptionMax={8192}>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <ParentField entity="customer" name="customerCode" label={t('fields.customer')} />
        </Grid.Col>
        <HierarchyParentField
          entity="site"
          name="parentSiteCode"
          label={t('fields.parentSite')}
          self={self}
        />
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <OfficeField />
        </Grid.Col>
      </GeneralFields>
      <AddressFields prefix="location.addressDetails" addressRequired />
      <GeolocationFields />
      <ContactFields />
      <CustomFieldsField definitions={definitions} />
    </Stack>
  );
}
