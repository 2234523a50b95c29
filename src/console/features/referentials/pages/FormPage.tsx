import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { initialCustomFields } from '../../../components/customFields/customFieldValues.ts';
import { readServiceError } from '../../../components/forms/index.ts';
import { EmptyState, ErrorState, PageHeader } from '../../../components/layout/index.ts';
import { useChildren, useDefinitions, useRecord } from '../api.ts';
import { AssetFields } from '../components/AssetFields.tsx';
import { CustomerFields } from '../components/CustomerFields.tsx';
import { RecordForm } from '../components/RecordForm.tsx';
import { SiteFields } from '../components/SiteFields.tsx';
import { detailPath, listPath } from '../paths.ts';
import {
  assetFormSchema,
  assetToBody,
  assetToForm,
  customerFormSchema,
  customerToBody,
  customerToForm,
  siteFormSchema,
  siteToBody,
  siteToForm,
} from '../schemas.ts';
import type { Asset, Customer, EntityBody, ReferentialEntity, Site } from '../types.ts';

/** Values a "new" link may carry (`?customer=` from a customer page, `?site=`, `?parent=`). */
export interface FormPresets {
  customer?: string;
  site?: string;
  parent?: string;
}

/**
 * Create (no `code`) or edit page of a customer, site or asset. The form waits for the
 * record and the custom-field definitions so that its default values are final (the
 * unsaved-changes guard compares with them).
 */
export function FormPage({
  entity,
  code,
  presets = {},
}: {
  entity: ReferentialEntity;
  code?: string;
  presets?: FormPresets;
}) {
  const { t } = useTranslation('referentials');
  const navigate = useNavigate();
  const ns = `${entity}s` as const;
  const creating = code === undefined;
  const record = useRecord(entity, code);
  const defs = useDefinitions(entity);
  const children = useChildren(entity, entity === 'asset' && !creating ? code : undefined);

  const back = creating ? listPath(entity) : detailPath(entity, code);
  const header = (
    <Stack gap="xs">
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {creating ? t(`${ns}.title`) : code?.toUpperCase()}
        </Group>
      </Anchor>
      <PageHeader
        title={creating ? t(`${ns}.newTitle`) : t(`${ns}.editTitle`, { code: code?.toUpperCase() })}
      />
    </Stack>
  );

  if ((!creating && record.isPending) || defs.isPending) {
    return (
      <Stack gap="md" aria-busy>
        {header}
        <Skeleton height={220} radius="md" />
        <Skeleton height={160} radius="md" />
      </Stack>
    );
  }
  if (!creating && (record.isError || !record.data)) {
    return (
      <Stack gap="md">
        {header}
        {readServiceError(record.error).status === 404 ? (
          <EmptyState
            title={t('detail.notFoundTitle')}
            body={t('detail.notFound', { entity: t(`entity.${entity}`), code: code.toUpperCase() })}
          />
        ) : (
          <ErrorState error={record.error} onRetry={() => record.refetch()} />
        )}
      </Stack>
    );
  }
  // Without the definitions extension the editor still shows (and keeps) stored values.
  const definitions = defs.data ?? [];
  const onCancel = () => navigate({ to: back as never });
  const self = creating ? undefined : code.toUpperCase();

  let form: React.ReactNode;
  if (entity === 'customer') {
    const rec = (record.data as Customer | undefined) ?? null;
    const defaults = customerToForm(rec);
    if (creating && presets.parent) defaults.parentCustomerCode = presets.parent.toUpperCase();
    defaults.customFields = creating
      ? initialCustomFields(definitions, defaults.customFields)
      : defaults.customFields;
    form = (
      <RecordForm
        entity="customer"
        code={self}
        defaults={defaults}
        previous={rec ? (customerToBody(rec) as EntityBody<'customer'>) : null}
        definitions={definitions}
        schema={customerFormSchema}
        onCancel={onCancel}
      >
        <CustomerFields creating={creating} self={self} definitions={definitions} />
      </RecordForm>
    );
  } else if (entity === 'site') {
    const rec = (record.data as Site | undefined) ?? null;
    const defaults = siteToForm(rec);
    if (creating && presets.customer) defaults.customerCode = presets.customer.toUpperCase();
    if (creating && presets.parent) defaults.parentSiteCode = presets.parent.toUpperCase();
    defaults.customFields = creating
      ? initialCustomFields(definitions, defaults.customFields)
      : defaults.customFields;
    form = (
      <RecordForm
        entity="site"
        code={self}
        defaults={defaults}
        previous={rec ? (siteToBody(rec) as EntityBody<'site'>) : null}
        definitions={definitions}
        schema={siteFormSchema}
        onCancel={onCancel}
      >
        <SiteFields creating={creating} self={self} definitions={definitions} />
      </RecordForm>
    );
  } else {
    const rec = (record.data as Asset | undefined) ?? null;
    const defaults = assetToForm(rec);
    if (creating && presets.site) defaults.siteCode = presets.site.toUpperCase();
    if (creating && presets.parent) defaults.parentAssetCode = presets.parent.toUpperCase();
    defaults.customFields = creating
      ? initialCustomFields(definitions, defaults.customFields)
      : defaults.customFields;
    form = (
      <RecordForm
        entity="asset"
        code={self}
        defaults={defaults}
        previous={rec ? (assetToBody(rec) as EntityBody<'asset'>) : null}
        definitions={definitions}
        schema={assetFormSchema}
        onCancel={onCancel}
      >
        <AssetFields
          creating={creating}
          self={self}
          definitions={definitions}
          childCount={children.data?.length}
        />
      </RecordForm>
    );
  }
  return (
    <Stack gap="md">
      {header}
      {form}
    </Stack>
  );
}
