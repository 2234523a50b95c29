/**
 * The lists of customers, sites and assets: one declaration per entity (ResourceListPage)
 * from the resource table (resources.tsx): the list extension's keyset pages, filtered by
 * text and office (in the URL), a row opening the record.
 */
import { IconPlus } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState } from '../../../components/layout/index.ts';
import { ButtonLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList, type ResourceList } from '../../../components/lists/resourceList.ts';
import { refKeys } from '../api.ts';
import { OfficeSelect } from '../components/OfficeSelect.tsx';
import { type ReferentialEntity, referentialPaths } from '../paths.ts';
import { refResource } from '../resources.tsx';
import type { ListSearch } from '../search.ts';
import { type RecordOf, referentialsApi, writeRow } from '../transport.ts';

function NewRecordButton({ entity }: { entity: ReferentialEntity }) {
  const { t } = useTranslation('referentials');
  return (
    <Can call={writeRow[entity]}>
      <ButtonLink
        to={referentialPaths[entity].new}
        leftSection={<IconPlus size={16} />}
        data-testid="new-record"
      >
        {t(`${refResource(entity).group}.new`)}
      </ButtonLink>
    </Can>
  );
}

function listOf<E extends ReferentialEntity>(entity: E): ResourceList<RecordOf<E>, ListSearch> {
  const res = refResource(entity);
  const g = res.group;
  const paths = referentialPaths[entity];
  const query = (s: ListSearch) => ({ q: s.q, officeCode: s.office });
  return defineList<RecordOf<E>, ListSearch>({
    ns: 'referentials',
    route: getRouteApi(paths.list),
    text: {
      title: `${g}.title`,
      subtitle: `${g}.subtitle`,
      label: `${g}.listLabel`,
      loading: 'list.loading',
      search: 'list.search',
      searchPlaceholder: res.searchIn,
      emptyTitle: 'list.emptyTitle',
      empty: `${g}.empty`,
      noMatchTitle: 'list.noMatchTitle',
      noMatch: 'list.noMatch',
      clear: 'list.clearFilters',
      sortedByCode: 'list.sortedByCode',
    },
    searchBox: { width: 280 },
    columns: (ctx) => res.columns(ctx),
    rowKey: (r) => res.codeOf(r),
    useOpen: () => {
      const navigate = useNavigate();
      return (r) => void navigate({ to: paths.detail, params: { code: res.codeOf(r) } });
    },
    source: {
      kind: 'pages',
      key: (s) => refKeys.list(entity, query(s)),
      page: (client, s, token, signal) =>
        referentialsApi(client).list(entity, { ...query(s), continuationToken: token }, signal),
    },
    Filters: ({ search, setSearch }) => {
      const { t } = useTranslation('referentials');
      return (
        <OfficeSelect
          label={t('list.office')}
          placeholder={t('list.allOffices')}
          clearable
          value={search.office ?? null}
          onChange={(v) => setSearch({ ...search, office: v ?? undefined })}
          w={240}
          data-testid="list-office"
        />
      );
    },
    Actions: () => <NewRecordButton entity={entity} />,
    EmptyAction: () => <NewRecordButton entity={entity} />,
    // An instance without the list extension: open records by their code instead.
    explain: (error, t) =>
      readServiceError(error).status === 404 ? (
        <EmptyState title={t(`${g}.title`)} body={t('list.unavailable')} />
      ) : undefined,
  });
}

const LISTS: { [E in ReferentialEntity]: ResourceList<RecordOf<E>, ListSearch> } = {
  customer: listOf('customer'),
  site: listOf('site'),
  asset: listOf('asset'),
};

export function ListPage({ entity }: { entity: ReferentialEntity }) {
  return entity === 'customer' ? (
    <ResourceListPage list={LISTS.customer} />
  ) : entity === 'site' ? (
    <ResourceListPage list={LISTS.site} />
  ) : (
    <ResourceListPage list={LISTS.asset} />
  );
}
