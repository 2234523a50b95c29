/**
 * `/projects`: the projects of the caller's office tree (keyset pages, infinite scroll),
 * searched by code (`?q=`, in the URL), sorted by code as the service answers; a row opens
 * the project's linker.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { ProjectSummary } from '../../../../contract/projectManagement.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList } from '../../../components/lists/resourceList.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { projectPaths as paths } from '../paths.ts';
import { projectKeys } from '../queries.ts';
import type { ListSearch } from '../search.ts';
import { projectsApi } from '../transport.ts';

const number = (n: number) => (
  <span style={{ display: 'block', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{n}</span>
);

const projectsList = defineList<ProjectSummary, ListSearch>({
  ns: 'projects',
  route: getRouteApi(paths.project.list),
  text: {
    title: 'projects.title',
    subtitle: 'projects.subtitle',
    label: 'projects.listLabel',
    loading: 'list.loading',
    search: 'list.search',
    searchPlaceholder: 'projects.searchPlaceholder',
    emptyTitle: 'projects.emptyTitle',
    empty: 'projects.empty',
    noMatchTitle: 'list.noMatchTitle',
    noMatch: 'list.noMatch',
    clear: 'list.clear',
    sortedByCode: 'list.sortedByCode',
  },
  columns: ({ t }) => [
    {
      key: 'code',
      header: t('fields.code'),
      width: 190,
      render: (r) => (
        <AnchorLink to={paths.project.detail} params={{ code: r.projectCode }} fw={500} size="sm">
          {r.projectCode}
        </AnchorLink>
      ),
    },
    { key: 'name', header: t('fields.name'), render: (r) => r.name },
    { key: 'office', header: t('fields.office'), width: 120, render: (r) => r.officeCode },
    {
      key: 'status',
      header: t('fields.status'),
      width: 130,
      render: (r) => <StatusBadge status={r.status} />,
    },
    {
      key: 'jobs',
      header: <span style={{ display: 'block', textAlign: 'right' }}>{t('fields.jobs')}</span>,
      width: 90,
      render: (r) => number(r.jobCount),
    },
    {
      key: 'workOrders',
      header: <span style={{ display: 'block', textAlign: 'right' }}>{t('fields.workOrders')}</span>,
      width: 130,
      render: (r) => number(r.workOrderCount),
    },
  ],
  rowKey: (r) => r.projectCode,
  useOpen: () => {
    const navigate = useNavigate();
    return (r) => void navigate({ to: paths.project.detail, params: { code: r.projectCode } });
  },
  source: {
    kind: 'pages',
    key: (s) => projectKeys.projectList(s.q),
    page: (client, s, token, signal) => projectsApi(client).listProjects(s.q, token, signal),
  },
});

export function ProjectsPage() {
  return <ResourceListPage list={projectsList} />;
}
