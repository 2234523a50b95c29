/**
 * `/projects/$code`: the project linker. On the left, the project's jobs in order, grouped
 * under their phases: a work order is dragged (pointer or keyboard) to a new place, the list
 * shows it there at once and the link call that reproduces the drop is sent (`after` or
 * `before` the job it lands next to, `index` when that job cannot be named); refused, it goes
 * back with the service's message. A work order found by its code is added at a chosen place
 * (taken from another project after confirmation). On the right, the dependencies: the graph
 * (an arrow drawn from a job to another declares "this blocks that" through the link call; a
 * refused cycle draws its path, an overlap shows both jobs' dates) or the same as a list.
 * A completed project shows its rules and takes no change.
 */
import '../linker.css';
import { Alert, Box, Group, Paper, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconGitFork, IconListDetails, IconLock } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project, ProjectJob } from '../../../../contract/projectManagement.ts';
import { Refused, useCan } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { LoadingState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { BackLabel, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { RecordTabButtons } from '../../../components/records/RecordTabs.tsx';
import { AddWorkOrder } from '../components/AddWorkOrder.tsx';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { DependencyList } from '../components/DependencyList.tsx';
import { JobRow } from '../components/JobRow.tsx';
import { jobLabel } from '../components/jobLabel.ts';
import { RefusalAlert } from '../components/Refusal.tsx';
import { SortableRows } from '../components/SortableRows.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { type DependencyRef, jobKey } from '../model.ts';
import { projectPaths as paths } from '../paths.ts';
import { useProject } from '../queries.ts';
import { writeRows } from '../transport.ts';
import { useProjectLinks } from './useProjectLinks.tsx';

const route = getRouteApi(paths.project.detail);
/** React Flow and the graph load with the first graph shown, after the jobs. */
const DependencyGraph = lazy(() =>
  import('../components/DependencyGraph.tsx').then((m) => ({ default: m.DependencyGraph })),
);

export function ProjectLinkerPage({ tabs }: { tabs: readonly RecordTab[] }) {
  const { code } = route.useParams();
  const { t } = useTranslation('projects');
  const project = useProject(code);

  if (!project.data)
    return (
      <QueryView
        query={project}
        loadingRows={10}
        loadingLabel={t('linker.loading')}
        notFound={
          <RecordNotFound
            title={t('linker.notFoundTitle')}
            body={t('linker.projectNotFound', { code })}
            back={(_, icon) => (
              <ButtonLink to={paths.project.list} variant="default" leftSection={icon}>
                {t('linker.backToProjects')}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>
    );
  return <Linker project={project.data} tabs={tabs} />;
}

type Links = ReturnType<typeof useProjectLinks>;
type View = 'graph' | 'list';

/** What a linker's panels know of the project: its jobs, why it is frozen, if it is. */
interface LinkerState {
  project: Project;
  links: Links;
  completed: boolean;
  /** Why a change is refused here (completed, or a role without the scope); null: changes allowed. */
  readOnly: string | null;
  denied: string | null;
}

function Linker({ project, tabs }: { project: Project; tabs: readonly RecordTab[] }) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.resolvedLanguage ?? 'en';
  const navigate = route.useNavigate();
  const { view = 'graph' } = route.useSearch();
  const setView = (next: View) =>
    void navigate({
      to: paths.project.detail,
      params: { code: project.projectCode },
      search: { view: next === 'list' ? 'list' : undefined },
      replace: true,
    });
  const jobs = project.jobs;
  const completed = project.status === 'completed';
  // A role that cannot link (nor remove a dependency, the same scope) sees the project as frozen.
  const can = useCan(writeRows.project);
  const denied = can.allowed ? null : (can.reason ?? t('common:loading'));
  const readOnly = completed ? t('linker.completedRule') : denied;

  const links = useProjectLinks({ project, t, lang, showGraph: () => view !== 'graph' && setView('graph') });
  const state: LinkerState = { project, links, completed, readOnly, denied };
  const workOrderCount = jobs.filter((j) => j.jobType === 'workOrder').length;

  return (
    <div className="linker-frame" data-testid="project-linker">
      <RecordHeader
        back={
          <AnchorLink to={paths.project.list} size="sm">
            <BackLabel>{t('linker.backToProjects')}</BackLabel>
          </AnchorLink>
        }
        title={project.name}
        code={project.projectCode}
        status={<StatusBadge status={project.status} />}
        actions={<RecordTabButtons tabs={tabs} code={project.projectCode} />}
        subtitle={t('linker.summary', {
          office: project.officeCode,
          jobs: t('linker.jobs', { count: jobs.length }),
          workOrders: t('linker.workOrders', { count: workOrderCount }),
          dependencies: t('linker.dependencies', { count: project.dependencies.length }),
        })}
      />
      <LinkerMessages links={links} completed={completed} reason={can.reason} />
      <div className="linker-columns">
        <JobsPanel {...state} />
        <DependenciesPanel {...state} view={view} setView={setView} />
      </div>
      <RemoveDependency links={links} />
    </div>
  );
}

/** The rules of a completed project, a refused role, the last refusal or notice, and the announcement. */
function LinkerMessages({
  links,
  completed,
  reason,
}: {
  links: Links;
  completed: boolean;
  reason: string | undefined;
}) {
  const { t } = useTranslation('projects');
  const { refusal, setRefusal, notice, setNotice, status } = links;
  return (
    <>
      {completed && (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="rules">
          {t('linker.completedRule')}
        </Alert>
      )}
      {!completed && <Refused reason={reason} />}
      {refusal && <RefusalAlert refusal={refusal} onClose={() => setRefusal(null)} />}
      {notice && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          withCloseButton
          closeButtonLabel={t('linker.dismiss')}
          onClose={() => setNotice(null)}
          role="alert"
          data-testid="notice"
        >
          {notice}
        </Alert>
      )}
      <VisuallyHidden role="status" aria-live="polite">
        {status}
      </VisuallyHidden>
    </>
  );
}

/** The jobs in order, a work order dragged to a new place, and the form that adds one. */
function JobsPanel({ project, links, completed, readOnly, denied }: LinkerState) {
  const { t } = useTranslation('projects');
  const jobs = project.jobs;
  const { busy, highlight } = links;
  const renderRow = (job: ProjectJob, index: number, handle: ReactNode) => (
    <JobRow job={job} index={index} handle={handle} jobs={jobs} highlight={highlight} />
  );
  return (
    <Paper withBorder radius="md" className="linker-panel">
      <Group justify="space-between" px="sm" pt="sm" pb={6}>
        <Title order={2} size="h5">
          {t('jobs.title')}
        </Title>
        <Text size="xs" c="dimmed">
          {readOnly ? t('jobs.frozen') : t('jobs.dragHint')}
        </Text>
      </Group>
      <Box px="sm" pb="sm">
        <AddWorkOrder
          places={links.places}
          disabledReason={completed ? t('linker.completedAdd') : denied}
          blockedReason={() => null}
          heldElsewhere={(wo) =>
            wo.projectCode && wo.projectCode !== project.projectCode ? { code: wo.projectCode } : null
          }
          whereItSits={(wo) =>
            wo.projectCode === project.projectCode
              ? t('add.inThisProject')
              : wo.projectCode
                ? t('add.inProject', { code: wo.projectCode })
                : null
          }
          onLink={links.add}
          busy={busy === 'add'}
          confirmText={(wo, from) => ({
            title: t('add.confirmTitle', { code: wo.workOrderCode, from }),
            body: t('add.confirmBody', { code: wo.workOrderCode, from, to: project.projectCode }),
            confirm: t('add.confirm'),
          })}
        />
      </Box>
      {jobs.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" p="xl" className="linker-scroll">
          {t('jobs.empty')}
        </Text>
      ) : (
        <SortableRows
          items={jobs}
          idOf={jobKey}
          labelOf={(j) => (j.jobType === 'task' ? t('jobs.task', { code: j.code }) : j.code)}
          movable={(j) => j.jobType === 'workOrder'}
          lockedReason={() => readOnly}
          onMove={(from, to) => void links.move(from, to)}
          busy={busy !== null}
          renderRow={renderRow}
          label={t('jobs.listLabel', { code: project.projectCode })}
          testId="job-list"
        />
      )}
    </Paper>
  );
}

/** The dependencies, as the graph (an arrow drawn declares one) or as a list, the view in the URL. */
function DependenciesPanel({
  project,
  links,
  completed,
  readOnly,
  view,
  setView,
}: LinkerState & { view: View; setView: (next: View) => void }) {
  const { t } = useTranslation('projects');
  const jobs = project.jobs;
  const dependencies = project.dependencies as DependencyRef[];
  return (
    <Paper withBorder radius="md" className="linker-panel">
      <Tabs
        value={view}
        onChange={(v) => setView(v === 'list' ? 'list' : 'graph')}
        keepMounted={false}
        style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
      >
        <Group justify="space-between" px="sm" pt={6} wrap="nowrap">
          <Title order={2} size="h5">
            {t('dependencies.title')}
          </Title>
          <Tabs.List style={{ borderBottom: 0 }}>
            <Tabs.Tab value="graph" leftSection={<IconGitFork size={14} />} data-testid="tab-graph">
              {t('dependencies.graph')}
            </Tabs.Tab>
            <Tabs.Tab value="list" leftSection={<IconListDetails size={14} />} data-testid="tab-list">
              {t('dependencies.list', { count: dependencies.length })}
            </Tabs.Tab>
          </Tabs.List>
        </Group>
        <Text size="xs" c="dimmed" px="sm" pb={4}>
          {completed
            ? t('linker.completedGraph')
            : view === 'graph'
              ? t('graph.hint')
              : t('dependencies.listHint')}
        </Text>
        <Tabs.Panel
          value="graph"
          style={{ flex: 1, minHeight: 0, borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Suspense fallback={<LoadingState rows={4} label={t('graph.loading')} />}>
            <DependencyGraph
              viewKey={project.projectCode}
              jobs={jobs}
              dependencies={dependencies}
              readOnly={readOnly}
              highlight={links.highlight}
              pending={links.pending}
              onDeclare={(a, b) => void links.declare(a, b)}
              onRemove={links.setRemoving}
            />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel
          value="list"
          className="linker-scroll"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <DependencyList
            jobs={jobs}
            dependencies={dependencies}
            readOnly={readOnly}
            busy={links.busy === 'dependency'}
            onDeclare={links.declare}
            onRemove={links.setRemoving}
          />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}

/** The confirmation a dependency's removal asks first. */
function RemoveDependency({ links }: { links: Links }) {
  const { t } = useTranslation('projects');
  const { removing, busy, setRemoving } = links;
  if (!removing) return null;
  return (
    <ConfirmModal
      opened
      title={t('dependencies.removeTitle')}
      body={t('dependencies.removeBody', {
        blocking: jobLabel(removing.blocking, t),
        blocked: jobLabel(removing.blocked, t),
      })}
      confirm={t('dependencies.removeConfirm')}
      color="red"
      busy={busy === 'remove'}
      onConfirm={() => void links.remove()}
      onCancel={() => setRemoving(null)}
    />
  );
}
