import { Fieldset, Grid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import { CustomFieldsField } from '../../../components/customFields/CustomFieldsField.tsx';
import { AddressFields } from './AddressFields.tsx';
import { CodeAndName, DescriptionField, OfficeField, ParentField } from './CommonFields.tsx';
import { ContactFields } from './ContactFields.tsx';
import { GeolocationFields } from './GeolocationFields.tsx';

/** Every field of the site PUT body (spec: Site, without lastUpdate). */
export function SiteFields({
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
            <ParentField entity="customer" name="customerCode" label={t('fields.customer')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <ParentField
              entity="site"
              name="parentSiteCode"
              label={t('fields.parentSite')}
              self={self}
              description={t('hierarchy.depthHint')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <OfficeField />
          </Grid.Col>
          <Grid.Col span={12}>
            <DescriptionField max={8192} />
          </Grid.Col>
        </Grid>
      </Fieldset>
      <AddressFields prefix="location.addressDetails" addressRequired />
      <GeolocationFields />
      <ContactFields />
      <CustomFieldsField definitions={definitions} />
    </Stack>
  );
}
