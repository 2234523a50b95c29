/**
 * A customer, site or asset: General, Hierarchy, Address, Contact, Custom fields and the
 * records attached below it, from the resource table (../resources.tsx).
 */
import { Breadcrumbs, Group, List, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
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
import { useChildren, useDefinitions, useRecord } from '../api.ts';
import { type PathStep, useAncestors } from '../components/ParentPicker.tsx';
import { countryName } from '../countries.ts';
import { type ReferentialEntity, referentialPaths } from '../paths.ts';
import { RecordLink, type RefResource, refResource } from '../resources.tsx';
import { type RecordOf, writeRow } from '../transport.ts';
import type { Contact } from '../types.ts';

type ChildrenQuery = ReturnType<typeof useChildren>;
type Place = ReturnType<NonNullable<RefResource<ReferentialEntity>['address']>>;

/**
 * Every query of the page, in one fixed order whether the record is loaded or not: the
 * hierarchy and attached queries wait (disabled) until the record's code is known.
 */
function useDetailQueries(entity: ReferentialEntity) {
  const { code } = getRouteApi(referentialPaths[entity].detail).useParams();
  const res = refResource(entity);
  const record = useRecord(entity, code);
  const defs = useDefinitions(entity);
  const r = record.data?.record;
  const recCode = r ? res.codeOf(r) : undefined;
  const parent = r ? res.parentOf(r) : null;
  const ancestors = useAncestors(entity, parent);
  const children = useChildren(entity, recCode);
  const attached = useChildren(res.attached?.entity ?? entity, res.attached ? recCode : undefined, entity);
  return { code, record, defs, r, recCode, parent, ancestors, children, attached };
}

export function DetailPage({ entity, tabs }: { entity: ReferentialEntity; tabs: readonly RecordTab[] }) {
  const { t } = useTranslation('referentials');
  const paths = referentialPaths[entity];
  const res = refResource(entity);
  const { code, record, defs, r, recCode, parent, ancestors, children, attached } = useDetailQueries(entity);

  const back = (
    <AnchorLink to={paths.list} size="sm">
      <BackLabel>{t(`${res.group}.title`)}</BackLabel>
    </AnchorLink>
  );

  if (!r || !recCode) return <RecordNotLoaded entity={entity} code={code} record={record} />;
  const place = res.address?.(r);

  return (
    <Stack gap="md">
      <RecordHeader
        back={back}
        title={r.name || recCode}
        code={recCode}
        lastUpdate={r.lastUpdate}
        actions={<DetailActions entity={entity} recCode={recCode} />}
      />
      <RecordTabs tabs={tabs} code={recCode}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <GeneralSection entity={entity} record={r} recCode={recCode} />
          <HierarchySection
            entity={entity}
            parent={parent}
            ancestors={ancestors.path}
            subRecords={children}
          />
          {place && <AddressSection place={place} />}
          {res.contact && 'contact' in r && <ContactSection contact={r.contact} />}
          <CustomFieldsSection definitions={defs.data ?? []} fields={r.customFields} />
          {res.attached && <AttachedSection entity={entity} attached={attached} />}
        </SimpleGrid>
      </RecordTabs>
    </Stack>
  );
}

/** Loading, not found or failed: what QueryView shows before there is a record. */
function RecordNotLoaded({
  entity,
  code,
  record,
}: {
  entity: ReferentialEntity;
  code: string;
  record: ReturnType<typeof useRecord>;
}) {
  const { t } = useTranslation('referentials');
  const list = referentialPaths[entity].list;
  return (
    <QueryView
      query={record}
      loading={<RecordSkeleton />}
      notFound={
        <RecordNotFound
          body={t('detail.notFound', { entity: t(`entity.${entity}`), code: code.toUpperCase() })}
          back={(label, icon) => (
            <ButtonLink to={list} variant="default" leftSection={icon}>
              {label}
            </ButtonLink>
          )}
        />
      }
    >
      {() => null}
    </QueryView>
  );
}

/** The header's buttons: add an attached record (a customer's site, a site's asset), edit. */
function DetailActions({ entity, recCode }: { entity: ReferentialEntity; recCode: string }) {
  const { t } = useTranslation('referentials');
  const res = refResource(entity);
  return (
    <>
      {res.attached && (
        <Can call={writeRow[res.attached.entity]}>
          <ButtonLink
            variant="default"
            to={referentialPaths[res.attached.entity].new}
            search={{ [res.attached.preset]: recCode }}
            leftSection={<IconPlus size={16} />}
            data-testid="add-attached"
          >
            {t(`${res.group}.addAttached`)}
          </ButtonLink>
        </Can>
      )}
      <Can call={writeRow[entity]}>
        <ButtonLink
          to={referentialPaths[entity].edit}
          params={{ code: recCode }}
          leftSection={<IconPencil size={16} />}
          data-testid="edit"
        >
          {t('common:record.edit')}
        </ButtonLink>
      </Can>
    </>
  );
}

function GeneralSection({
  entity,
  record: r,
  recCode,
}: {
  entity: ReferentialEntity;
  record: RecordOf<ReferentialEntity>;
  recCode: string;
}) {
  const { t, i18n } = useTranslation('referentials');
  const ctx = { t, lang: i18n.resolvedLanguage ?? 'en' };
  return (
    <Section title={t('detail.general')} testId="section-general">
      <Field label={t('common:record.code')}>
        <Text span ff="monospace" size="sm">
          {recCode}
        </Text>
      </Field>
      <Field label={t('fields.name')}>{valueOrNotSet(r.name)}</Field>
      {refResource(entity)
        .general(r, ctx)
        .map((row) => (
          <Field key={row.label} label={row.label}>
            {row.value}
          </Field>
        ))}
      <Field label={t('fields.office')}>{valueOrNotSet(r.officeCode)}</Field>
      <Field label={t('fields.description')}>
        <span style={{ whiteSpace: 'pre-wrap' }}>{valueOrNotSet(r.description)}</span>
      </Field>
    </Section>
  );
}

/** The parent's path from the top, and the records whose parent this one is. */
function HierarchySection({
  entity,
  parent,
  ancestors,
  subRecords: children,
}: {
  entity: ReferentialEntity;
  parent: string | null;
  ancestors: readonly PathStep[];
  subRecords: ChildrenQuery;
}) {
  const { t } = useTranslation('referentials');
  return (
    <Section title={t('hierarchy.title')} testId="section-hierarchy">
      <Field label={t('hierarchy.parent')}>
        {parent ? (
          <Breadcrumbs separator="›" separatorMargin={6}>
            {(ancestors.length ? ancestors : [{ code: parent }]).map((p) => (
              <RecordLink key={p.code} entity={entity} code={p.code} />
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
              <RecordLink key={c.code} entity={entity} code={c.code} />
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
  );
}

function AddressSection({ place }: { place: Place }) {
  const { t, i18n } = useTranslation('referentials');
  const lang = i18n.resolvedLanguage ?? 'en';
  return (
    <Section title={t('address.title')} testId="section-address">
      <Field label={t('address.address')}>
        <span style={{ whiteSpace: 'pre-wrap' }}>{valueOrNotSet(place.address.address)}</span>
      </Field>
      <Field label={t('address.zipCode')}>{valueOrNotSet(place.address.zipCode)}</Field>
      <Field label={t('address.city')}>{valueOrNotSet(place.address.city)}</Field>
      <Field label={t('address.country')}>
        {place.address.country ? (
          `${countryName(place.address.country, lang)} (${place.address.country})`
        ) : (
          <NotSet />
        )}
      </Field>
      {place.geolocation !== undefined && (
        <Field label={t('fields.geolocation')}>
          {place.geolocation ? `${place.geolocation.latitude}, ${place.geolocation.longitude}` : <NotSet />}
        </Field>
      )}
    </Section>
  );
}

/** The records of another entity attached below this one (a customer's sites, a site's assets). */
function AttachedSection({ entity, attached }: { entity: ReferentialEntity; attached: ChildrenQuery }) {
  const { t } = useTranslation('referentials');
  const res = refResource(entity);
  return (
    <Section title={t(`${res.group}.attached`)} testId="section-attached">
      {attached.isPending && attached.fetchStatus !== 'idle' ? (
        <Skeleton height={16} width={160} />
      ) : (attached.data?.length ?? 0) === 0 ? (
        <Text size="sm" c="dimmed">
          {t(`${res.group}.noAttached`)}
        </Text>
      ) : (
        <List size="sm" spacing={2}>
          {(attached.data ?? []).map((c) => (
            <List.Item key={c.code}>
              {res.attached && <RecordLink entity={res.attached.entity} code={c.code} />}{' '}
              <Text span size="sm" c="dimmed">
                {c.name}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Section>
  );
}

function ContactSection({ contact }: { contact: Contact | null | undefined }) {
  const { t } = useTranslation('referentials');
  return (
    <Section title={t('contact.title')} testId="section-contact">
      <Field label={t('contact.name')}>{valueOrNotSet(contact?.name)}</Field>
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
