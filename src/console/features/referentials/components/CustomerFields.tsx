import { Fieldset, Grid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import { AddressFields } from './AddressFields.tsx';
import { CodeAndName, DescriptionField, OfficeField, ParentField } from './CommonFields.tsx';
import { ContactFields } from './ContactFields.tsx';

/** Every field of the customer PUT body (spec: Customer). */
export function CustomerFields({
  creating,
  self,
  definitions,
}: {
  creating: boolean;
  self?: string;
  definitions: readonly CustomFieldDefinition[];
}) {
  const { t } = useTranslation('referentials');
  return (
    <Stack gap="md">
      <Fieldset legend={t('detail.general')}>
        <Grid gap="sm">
          <CodeAndName creating={creating} />
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <ParentField
              entity="customer"
              name="parentCustomerCode"
              label={t('fields.parentCustomer')}
              self={self}
              description={t('hierarchy.depthHint')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <OfficeField />
          </Grid.Col>
          <Grid.Col span={12}>
            <DescriptionField max={10000} />
          </Grid.Col>
        </Grid>
      </Fieldset>
      <AddressFields prefix="addressDetails" addressRequired={false} />
      <ContactFields />
      <CustomFieldsField definitions={definitions} />
    </Stack>
  );
}
