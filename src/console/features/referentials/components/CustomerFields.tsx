import { Grid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import type { FieldsProps } from '../forms.tsx';
import { AddressFields } from './AddressFields.tsx';
import { GeneralFields, HierarchyParentField, OfficeField } from './CommonFields.tsx';
import { ContactFields } from './ContactFields.tsx';

/** Every field of the customer PUT body (spec: Customer). */
export function CustomerFields({ creating, self, definitions }: FieldsProps) {
  const { t } = useTranslation('referentials');
  return (
    <Stack gap="md">
      <GeneralFields creating={creating} descriptionMax={10000}>
        <HierarchyParentField
          entity="customer"
          name="parentCustomerCode"
          label={t('fields.parentCustomer')}
          self={self}
        />
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <OfficeField />
        </Grid.Col>
      </GeneralFields>
      <AddressFields prefix="addressDetails" addressRequired={false} />
      <ContactFields />
      <CustomFieldsField definitions={definitions} />
    </Stack>
  );
}
