import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconPencil, IconPlus } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition, CustomFields } from '../../../../contract/common.ts';
import { formatCustomValue, unknownCodes } from '../../../components/customFields/customFieldValues.ts';
import { readServiceError } from '../../../components/forms/index.ts';
import { EmptyState, ErrorState, PageHeader } from '../../../components/layout/index.ts';
import { useChildren, useDefinitions, useRecord } from '../api.ts';
import { useAncestors } from '../components/ParentPicker.tsx';
import { countryName } from '../countries.ts';
import { detailPath, editPath, listPath, newPath } from '../paths.ts';
import { type Contact, codeOf, parentOf, type ReferentialEntity } from '../types.ts';

type Row = Record<string, unknown>;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={140} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      <Stack gap={8}>{children}</Stack>
    </Card>
  );
}

function NotSet() {
  const { t } = useTranslation('referentials');
  return (
    <Text span size="sm" c="dimmed">
      {t('detail.notSet')}
    </Text>
  );
}

const txt = (v: unknown) => (v === null || v === undefined || v === '' ? <NotSet /> : String(v));

function formatLastUpdate(v: unknown, lang: string): string | null {
  if (typeof v !== 'string' || !v) return null;
  const d = new Date(v.replace(' UTC', 'Z').replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) return v;
  return (
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d) +
    ' UTC'
  );
}

export function DetailPage({ entity, code }: { entity: ReferentialEntity; code: string }) {
  const { t, i18n } = useTranslation('referentials');
  const lang = i18n.resolvedLanguage ?? 'en';
  const ns = `${entity}s` as const;
  const record = useRecord(entity, code);
  const defs = useDefinitions(entity);
  const r = record.data as unknown as Row | undefined;
  const parent = r ? parentOf(entity, r) : null;
  const ancestors = useAncestors(entity, parent);
  const children = useChildren(entity, r ? codeOf(entity, r) : undefined);
  const childEntity: ReferentialEntity | null =
    entity === 'customer' ? 'site' : entity === 'site' ? 'asset' : null;
  const attached = useChildren(
    childEntity ?? entity,
    r && childEntity ? codeOf(entity, r) : undefined,
    entity,
  );

  if (record.isPending) {
    return (
      <Stack gap="md" aria-busy>
        <Skeleton height={40} width={320} />
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton height={180} />
          <Skeleton height={180} />
        </SimpleGrid>
      </Stack>
    );
  }
  if (record.isError || !r) {
    const notFound = readServiceError(record.error).status === 404;
    return notFound ? (
      <EmptyState
        title={t('detail.notFoundTitle')}
        body={t('detail.notFound', { entity: t(`entity.${entity}`), code: code.toUpperCase() })}
        action={
          <Button
            component={Link}
            to={listPath(entity)}
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
          >
            {t('detail.back')}
          </Button>
        }
      />
    ) : (
      <ErrorState error={record.error} onRetry={() => record.refetch()} />
    );
  }
  const recCode = codeOf(entity, r);
  const address = (entity === 'site' ? (r.location as Row | undefined)?.addressDetails : r.addressDetails) as
    | Row
    | undefined;
  const geo =
    entity === 'site' ? ((r.location as Row | undefined)?.geolocation as Row | null | undefined) : undefined;
  const lastUpdate = formatLastUpdate(r.lastUpdate, lang);

  return (
    <Stack gap="md">
      <Anchor component={Link} to={listPath(entity)} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t(`${ns}.title`)}
        </Group>
      </Anchor>
      <PageHeader
        title={txt(r.name) || recCode}
        badge={
          <Badge variant="light" size="lg" radius="sm" data-testid="record-code">
            {recCode}
          </Badge>
        }
        subtitle={lastUpdate ? `${t('fields.lastUpdate')}: ${lastUpdate}` : undefined}
        actions={
          <>
            {childEntity && (
              <Button
                variant="default"
                component={Link}
                to={newPath(childEntity)}
                search={{ [entity === 'customer' ? 'customer' : 'site']: recCode } as never}
                leftSection={<IconPlus size={16} />}
              >
                {t(entity === 'customer' ? 'customers.addSite' : 'sites.addAsset')}
              </Button>
            )}
            <Button
              component={Link}
              to={editPath(entity, recCode)}
              leftSection={<IconPencil size={16} />}
              data-testid="edit"
            >
              {t('detail.edit')}
            </Button>
          </>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title={t('detail.general')} testId="section-general">
          <Field label={t('fields.code')}>{recCode}</Field>
          <Field label={t('fields.name')}>{txt(r.name)}</Field>
          {entity === 'site' && (
            <Field label={t('fields.customer')}>
              <Anchor component={Link} to={detailPath('customer', String(r.customerCode))} size="sm">
                {String(r.customerCode)}
              </Anchor>
            </Field>
          )}
          {entity === 'asset' && <Field label={t('fields.serialNumber')}>{txt(r.serialNumber)}</Field>}
          {entity === 'asset' && (
            <Field label={t('fields.customer')}>
              {r.customerCode ? (
                <Anchor component={Link} to={detailPath('customer', String(r.customerCode))} size="sm">
                  {String(r.customerCode)}
                </Anchor>
              ) : (
                <NotSet />
              )}
            </Field>
          )}
          {entity === 'asset' && (
            <Field label={t('fields.site')}>
              {r.siteCode ? (
                <Anchor component={Link} to={detailPath('site', String(r.siteCode))} size="sm">
                  {String(r.siteCode)}
                </Anchor>
              ) : (
                <NotSet />
              )}
            </Field>
          )}
          <Field label={t('fields.office')}>{txt(r.officeCode)}</Field>
          <Field label={t('fields.description')}>
            <span style={{ whiteSpace: 'pre-wrap' }}>{txt(r.description)}</span>
          </Field>
        </Section>
        <Section title={t('hierarchy.title')} testId="section-hierarchy">
          <Field label={t('hierarchy.parent')}>
            {parent ? (
              <Breadcrumbs separator="›" separatorMargin={6}>
                {(ancestors.path.length ? ancestors.path : [{ code: parent }]).map((p) => (
                  <Anchor key={p.code} component={Link} to={detailPath(entity, p.code)} size="sm">
                    {p.code}
                  </Anchor>
                ))}
              </Breadcrumbs>
            ) : (
              <Text span size="sm" c="dimmed">
                {t('hierarchy.noParent')}
              </Text>
            )}
          </Field>
          <Field label={t('hierarchy.children')}>
            {children.isPending && children.fetchStatus !== 'idle' ? (
              <Skeleton height={16} width={120} />
            ) : (children.data?.length ?? 0) === 0 ? (
              <Text span size="sm" c="dimmed">
                {children.isError ? '—' : t('hierarchy.noChildren')}
              </Text>
            ) : (
              <Group gap={6}>
                {(children.data ?? []).map((c) => (
                  <Anchor key={c.code} component={Link} to={detailPath(entity, c.code)} size="sm">
                    {c.code}
                  </Anchor>
                ))}
                {children.more && (
                  <Text span size="sm">
                    …
                  </Text>
                )}
              </Group>
            )}
          </Field>
        </Section>
        {address && (
          <Section title={t('address.title')} testId="section-address">
            <Field label={t('address.address')}>
              <span style={{ whiteSpace: 'pre-wrap' }}>{txt(address.address)}</span>
            </Field>
            <Field label={t('address.zipCode')}>{txt(address.zipCode)}</Field>
            <Field label={t('address.city')}>{txt(address.city)}</Field>
            <Field label={t('address.country')}>
              {address.country ? (
                `${countryName(String(address.country), lang)} (${address.country})`
              ) : (
                <NotSet />
              )}
            </Field>
            {entity === 'site' && (
              <Field label={t('fields.geolocation')}>
                {geo ? `${geo.latitude}, ${geo.longitude}` : <NotSet />}
              </Field>
            )}
          </Section>
        )}
        {entity !== 'asset' && <ContactSection contact={r.contact as Contact | null | undefined} />}
        <CustomFieldsSection
          definitions={defs.data ?? []}
          fields={r.customFields as CustomFields | undefined}
        />
        {childEntity && (
          <Section
            title={t(entity === 'customer' ? 'customers.sites' : 'sites.assets')}
            testId="section-attached"
          >
            {attached.isPending && attached.fetchStatus !== 'idle' ? (
              <Skeleton height={16} width={160} />
            ) : (attached.data?.length ?? 0) === 0 ? (
              <Text size="sm" c="dimmed">
                {t(entity === 'customer' ? 'customers.noSites' : 'sites.noAssets')}
              </Text>
            ) : (
              <List size="sm" spacing={2}>
                {(attached.data ?? []).map((c) => (
                  <List.Item key={c.code}>
                    <Anchor component={Link} to={detailPath(childEntity, c.code)} size="sm">
                      {c.code}
                    </Anchor>{' '}
                    <Text span size="sm" c="dimmed">
                      {c.name}
                    </Text>
                  </List.Item>
                ))}
              </List>
            )}
          </Section>
        )}
      </SimpleGrid>
    </Stack>
  );
}

function ContactSection({ contact }: { contact: Contact | null | undefined }) {
  const { t } = useTranslation('referentials');
  return (
    <Section title={t('contact.title')} testId="section-contact">
      <Field label={t('contact.name')}>{txt(contact?.name)}</Field>
      {(contact?.details?.length ?? 0) === 0 ? (
        <Text size="sm" c="dimmed">
          {t('contact.noDetails')}
        </Text>
      ) : (
        <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('contact.type')}</Table.Th>
              <Table.Th>{t('contact.value')}</Table.Th>
              <Table.Th>{t('contact.description')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(contact?.details ?? []).map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: details have no identity but their position
              <Table.Tr key={i}>
                <Table.Td>{t(`contact.types.${d.type ?? 'Phone'}`)}</Table.Td>
                <Table.Td>{d.value}</Table.Td>
                <Table.Td>{d.description ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

function CustomFieldsSection({
  definitions,
  fields,
}: {
  definitions: readonly CustomFieldDefinition[];
  fields: CustomFields | undefined;
}) {
  const { t } = useTranslation('referentials');
  const tc = useTranslation('customFields').t;
  const extra = unknownCodes(definitions, fields);
  const shown = definitions.filter((d) => fields?.[d.code] !== undefined);
  return (
    <Section title={t('fields.customFields')} testId="section-custom-fields">
      {shown.length === 0 && extra.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('detail.notSet')}
        </Text>
      )}
      {shown.map((d) => (
        <Field key={d.code} label={d.label || d.code}>
          {d.type === 'urlValue' && fields?.[d.code]?.urlValue ? (
            <Anchor href={fields[d.code].urlValue} target="_blank" rel="noreferrer" size="sm">
              {fields[d.code].urlValue}
            </Anchor>
          ) : (
            formatCustomValue(fields?.[d.code], tc('yes'), tc('no'))
          )}
        </Field>
      ))}
      {extra.map((c) => (
        <Field key={c} label={c}>
          {formatCustomValue(fields?.[c], tc('yes'), tc('no'))}
        </Field>
      ))}
    </Section>
  );
}
