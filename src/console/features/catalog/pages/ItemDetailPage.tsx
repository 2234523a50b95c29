/**
 * `/catalog/items/$code`: an item, read-only, like every record page (header with the
 * code badge, state and last update; sections; Edit and Duplicate).
 */
import { SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCopy, IconPencil } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { CustomFieldsSection } from '../../../components/customFields/CustomFieldsSection.tsx';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import {
  BackLabel,
  Field,
  NotSet,
  RecordHeader,
  Section,
  valueOrNotSet,
} from '../../../components/records/RecordParts.tsx';
import { RecordNotFound, RecordSkeleton } from '../../../components/records/RecordStates.tsx';
import { RecordTabs } from '../../../components/records/RecordTabs.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { catalogPaths as paths } from '../paths.ts';
import { useItem, useItemDefinitions } from '../queries.ts';
import { writeRows } from '../transport.ts';

const route = getRouteApi(paths.item.detail);

export function ItemDetailPage({ tabs }: { tabs: readonly RecordTab[] }) {
  const { t, i18n } = useTranslation('catalog');
  const { code } = route.useParams();
  const record = useItem(code);
  const defs = useItemDefinitions();
  const lang = i18n.resolvedLanguage ?? 'en';
  const money = useMemo(
    () => new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    [lang],
  );
  const back = (
    <AnchorLink to={paths.item.list} size="sm">
      <BackLabel>{t('items.title')}</BackLabel>
    </AnchorLink>
  );

  if (!record.data)
    return (
      <QueryView
        query={record}
        loading={<RecordSkeleton />}
        notFound={
          <RecordNotFound
            body={t('item.notFound', { code: code.toUpperCase() })}
            back={(label, icon) => (
              <ButtonLink to={paths.item.list} variant="default" leftSection={icon}>
                {label}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>
    );
  const item = record.data.record;
  const yesNo = (v: boolean) => (v ? t('common:yes') : t('common:no'));

  return (
    <Stack gap="md">
      <RecordHeader
        back={back}
        title={item.name || item.itemCode}
        code={item.itemCode}
        status={
          <StatusBadge color={item.active ? 'teal' : 'gray'} data-testid="item-state">
            {item.active ? t('items.active') : t('items.inactive')}
          </StatusBadge>
        }
        lastUpdate={item.lastUpdate}
        actions={
          <>
            <Can call={writeRows.item}>
              <ButtonLink
                to={paths.item.new}
                search={{ duplicateOf: item.itemCode }}
                variant="default"
                leftSection={<IconCopy size={16} />}
                data-testid="duplicate"
              >
                {t('item.duplicate')}
              </ButtonLink>
            </Can>
            <Can call={writeRows.item}>
              <ButtonLink
                to={paths.item.edit}
                params={{ code: item.itemCode }}
                leftSection={<IconPencil size={16} />}
                data-testid="edit"
              >
                {t('common:record.edit')}
              </ButtonLink>
            </Can>
          </>
        }
      />
      <RecordTabs tabs={tabs} code={item.itemCode}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Section title={t('item.sections.identification')} testId="section-identification">
            <Field label={t('common:record.code')}>
              <Text span ff="monospace" size="sm">
                {item.itemCode}
              </Text>
            </Field>
            <Field label={t('item.fields.name')}>{valueOrNotSet(item.name)}</Field>
            <Field label={t('item.fields.category')}>{valueOrNotSet(item.category)}</Field>
            <Field label={t('item.fields.reference')}>{valueOrNotSet(item.reference)}</Field>
            <Field label={t('item.fields.barCode')}>{valueOrNotSet(item.barCode)}</Field>
            <Field label={t('item.fields.manufacturer')}>{valueOrNotSet(item.manufacturer)}</Field>
            <Field label={t('item.fields.description')}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{valueOrNotSet(item.description)}</span>
            </Field>
            <Field label={t('item.fields.active')}>{yesNo(item.active)}</Field>
          </Section>
          <Section title={t('item.sections.billing')} testId="section-billing">
            <Field label={t('item.fields.unit')}>{valueOrNotSet(item.unit)}</Field>
            <Field label={t('item.fields.unitPrice')}>
              {item.unitPrice === null ? <NotSet /> : money.format(item.unitPrice)}
            </Field>
            <Field label={t('item.fields.vatRates')}>
              {item.vatRates?.length ? item.vatRates.map((r) => `${r} %`).join(', ') : <NotSet />}
            </Field>
            <Field label={t('item.fields.fixedPrice')}>{yesNo(item.fixedPrice)}</Field>
          </Section>
          <Section title={t('item.sections.serials')} testId="section-serials">
            <Field label={t('item.fields.serialNumberPattern')}>
              {item.serialNumberPattern ? (
                <Text span ff="monospace" size="sm">
                  {item.serialNumberPattern}
                </Text>
              ) : (
                <NotSet />
              )}
            </Field>
          </Section>
          <CustomFieldsSection definitions={defs.data ?? []} fields={item.customFields} />
        </SimpleGrid>
      </RecordTabs>
    </Stack>
  );
}
