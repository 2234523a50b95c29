/**
 * `/technicians`: the technicians of the caller's office tree by code (keyset pages
 * of 200), searched by text in the code or name (`?q=`); a row opens the technician's day.
 */
import { Badge } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { AnchorLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList } from '../../../components/lists/resourceList.ts';
import { workordersPaths as paths } from '../paths.ts';
import { noRetry4xx, workordersKeys } from '../queries.ts';
import type { TechniciansSearch } from '../search.ts';
import { type Technician, workordersApi } from '../transport.ts';

const query = (s: TechniciansSearch) => ({ q: s.q, officeCode: s.office });

const techniciansList = defineList<Technician, TechniciansSearch>({
  ns: 'workorders',
  route: getRouteApi(paths.technician.list),
  text: {
    title: 'technicians.title',
    subtitle: 'technicians.subtitle',
    label: 'technicians.label',
    loading: 'technicians.loading',
    search: 'technicians.search',
    searchPlaceholder: 'technicians.searchPlaceholder',
    emptyTitle: 'technicians.emptyTitle',
    empty: 'technicians.empty',
    noMatchTitle: 'technicians.emptyTitle',
    noMatch: 'technicians.noMatch',
    clear: 'list.clearFilters',
  },
  searchBox: { testId: 'technicians-search' },
  columns: ({ t }) => [
    {
      key: 'code',
      header: t('technician.code'),
      width: 160,
      fit: (r) => r.technicianCode,
      fitMono: true,
      fitWeight: 500,
      render: (r) => (
        <AnchorLink
          to={paths.technician.detail}
          params={{ code: r.technicianCode }}
          fw={500}
          size="sm"
          ff="monospace"
        >
          {r.technicianCode}
        </AnchorLink>
      ),
    },
    { key: 'name', header: t('technician.name'), render: (r) => r.name },
    { key: 'office', header: t('fields.office'), width: 120, render: (r) => r.officeCode },
    { key: 'skills', header: t('technician.skills'), width: 220, render: (r) => r.skills.join(', ') },
    {
      key: 'active',
      header: t('technician.state'),
      width: 110,
      render: (r) => (
        <Badge
          variant="light"
          color={r.active ? 'teal' : 'gray'}
          radius="sm"
          styles={{ label: { color: 'var(--mantine-color-text)' } }}
        >
          {r.active ? t('technician.active') : t('technician.inactive')}
        </Badge>
      ),
    },
  ],
  rowKey: (r) => r.technicianCode,
  useOpen: () => {
    const navigate = useNavigate();
    return (r) => void navigate({ to: paths.technician.detail, params: { code: r.technicianCode } });
  },
  source: {
    kind: 'pages',
    key: (s) => workordersKeys.technicians(query(s)),
    page: (client, s, token, signal) =>
      workordersApi(client).technicians({ ...query(s), continuationToken: token }, signal),
    retry: noRetry4xx,
  },
});

export function TechniciansPage() {
  return <ResourceListPage list={techniciansList} />;
}
