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
import {
  IconAlertTriangle,
  IconChecklist,
  IconFolder,
  IconGitFork,
  IconListDetails,
  IconLock,
  IconTool,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import {
  ProjectManagementCodes as C,
  type JobRef,
  type LinkableWorkOrder,
  type Project,
  type ProjectJob,
  parseCyclePath,
  parseOverlaps,
} from '../../../../contract/projectManagement.ts';
import { LoadingState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { BackLabel, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { AddWorkOrder } from '../components/AddWorkOrder.tsx';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import type { GraphHighlight } from '../components/DependencyGraph.tsx';
import { DependencyList } from '../components/DependencyList.tsx';
import { jobLabel } from '../components/jobLabel.ts';
import { type Refusal, RefusalAlert } from '../components/Refusal.tsx';
import { SortableRows } from '../components/SortableRows.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { WorkOrderCode } from '../components/WorkOrderCode.tsx';
import {
  cycleHighlight,
  type DependencyRef,
  dependencyCall,
  formatPlanned,
  formatPlannedRange,
  jobKey,
  moveItem,
  overlapJobs,
  type ProjectPlace,
  phaseAt,
  projectDropInsertion,
  projectPlaceInsertion,
  refText,
} from '../model.ts';
import { projectPaths as paths } from '../paths.ts';
import { projectKeys, useInvalidateLinks, useProject, useProjectsApi } from '../queries.ts';

const route = getRouteApi(paths.project.detail);
/** React Flow and the graph load with the first graph shown, after the jobs. */
const DependencyGraph = lazy(() =>
  import('../components/DependencyGraph.tsx').then((m) => ({ default: m.DependencyGraph })),
);

const NO_HIGHLIGHT: GraphHighlight = { cycle: null, overlap: null };

export function ProjectLinkerPage() {
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
  return <Linker project={project.data} />;
}

function Linker({ project }: { project: Project }) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.resolvedLanguage ?? 'en';
  const api = useProjectsApi();
  const qc = useQueryClient();
  const invalidate = useInvalidateLinks();
  const navigate = route.useNavigate();
  const { view = 'graph' } = route.useSearch();
  const setView = (next: 'graph' | 'list') =>
    void navigate({
      to: paths.project.detail,
      params: { code: project.projectCode },
      search: { view: next === 'list' ? 'list' : undefined },
      replace: true,
    });
  const key = projectKeys.project(project.projectCode);
  const jobs = project.jobs;
  const dependencies = project.dependencies as DependencyRef[];
  const completed = project.status === 'completed';
  const readOnly = completed ? t('linker.completedRule') : null;

  const [busy, setBusy] = useState<'move' | 'add' | 'dependency' | 'remove' | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [highlight, setHighlight] = useState<GraphHighlight>(NO_HIGHLIGHT);
  const [pending, setPending] = useState<DependencyRef | null>(null);
  const [removing, setRemoving] = useState<DependencyRef | null>(null);
  const [status, setStatus] = useState('');

  const startAction = (kind: NonNullable<typeof busy>) => {
    setBusy(kind);
    setRefusal(null);
    setNotice(null);
    setHighlight(NO_HIGHLIGHT);
  };

  /* ---- drag a work order to a new place ---- */
  const move = async (from: number, to: number) => {
    const insertion = projectDropInsertion(jobs, from, to);
    const moved = jobs[from];
    if (!insertion || moved.jobType !== 'workOrder') return;
    startAction('move');
    const before = qc.getQueryData<Project>(key);
    await qc.cancelQueries({ queryKey: key });
    qc.setQueryData<Project>(key, (p) => (p ? { ...p, jobs: moveItem(p.jobs, from, to) } : p));
    try {
      await api.linkToProject(project.projectCode, moved.code, insertion);
      setStatus(t('linker.moved', { code: moved.code, position: to + 1 }));
      await invalidate(key);
    } catch (e) {
      if (before) qc.setQueryData(key, before);
      setRefusal({ title: t('refused.move', { code: moved.code }), error: e });
      setStatus(t('linker.moveRefused', { code: moved.code }));
      void qc.invalidateQueries({ queryKey: key });
    } finally {
      setBusy(null);
    }
  };

  /* ---- add a work order found by its code ---- */
  const phases = jobs.filter((j) => j.jobType === 'phase');
  const places = [
    { value: 'last', label: t('add.placeLast') },
    { value: 'first', label: t('add.placeFirst') },
    ...phases.map((p) => ({ value: `phase:${p.code}`, label: t('add.placeEndOfPhase', { phase: p.code }) })),
  ];
  const placeOf = (value: string): ProjectPlace =>
    value.startsWith('phase:')
      ? { at: 'endOfPhase', phase: value.slice(6) }
      : { at: value === 'first' ? 'first' : 'last' };
  const add = async (wo: LinkableWorkOrder, place: string): Promise<boolean> => {
    startAction('add');
    try {
      await api.linkToProject(
        project.projectCode,
        wo.workOrderCode,
        projectPlaceInsertion(jobs, placeOf(place)),
      );
      setStatus(t('linker.added', { code: wo.workOrderCode }));
      await invalidate(key);
      return true;
    } catch (e) {
      setRefusal({ title: t('refused.add', { code: wo.workOrderCode }), error: e });
      return false;
    } finally {
      setBusy(null);
    }
  };

  /* ---- declare a dependency (graph arrow or list) ---- */
  const declare = async (blocking: JobRef, blocked: JobRef): Promise<boolean> => {
    const call = dependencyCall(jobs, dependencies, blocking, blocked);
    if (!call.ok) {
      setRefusal(null);
      setHighlight(NO_HIGHLIGHT);
      setNotice(
        t(`dependencies.reasons.${call.reason}`, {
          blocking: jobLabel(blocking, t),
          blocked: jobLabel(blocked, t),
        }),
      );
      return false;
    }
    startAction('dependency');
    setPending({ blocking, blocked });
    try {
      await api.linkToProject(project.projectCode, call.code, call.insertion);
      setStatus(t('linker.declared', { blocking: jobLabel(blocking, t), blocked: jobLabel(blocked, t) }));
      await invalidate(key);
      return true;
    } catch (e) {
      const errors = e instanceof ApiError ? e.errors : [];
      const cycle = errors.find((x) => x.code === C.dependencyCycle);
      const overlap = errors.find((x) => x.code === C.dependencyOverlap);
      const path = cycle ? parseCyclePath(cycle.message) : undefined;
      const overlaps = overlap ? parseOverlaps(overlap.message) : [];
      setHighlight({
        cycle: path ? cycleHighlight(path) : null,
        overlap: overlaps.length ? overlapJobs(overlaps) : null,
      });
      const details: ReactNode[] = [];
      if (path)
        details.push(
          <Text key="cycle" size="sm" fw={600} data-testid="cycle-path">
            {t('graph.cyclePath', { path: path.map((j) => jobLabel(j, t)).join(' → ') })}
          </Text>,
        );
      for (const o of overlaps)
        details.push(
          <Text key={`${refText(o.blocking)}>${refText(o.blocked)}`} size="sm" fw={600} data-testid="overlap">
            {t('graph.overlapLine', {
              blocking: jobLabel(o.blocking, t),
              end: formatPlanned(o.blocking.plannedEnd, lang),
              blocked: jobLabel(o.blocked, t),
              start: formatPlanned(o.blocked.plannedStart, lang),
            })}
          </Text>,
        );
      setRefusal({
        title: t('refused.dependency', { blocking: jobLabel(blocking, t), blocked: jobLabel(blocked, t) }),
        error: e,
        details: details.length ? details : undefined,
      });
      // The path is drawn on the graph.
      if (path && view !== 'graph') setView('graph');
      return false;
    } finally {
      setPending(null);
      setBusy(null);
    }
  };

  /* ---- remove a dependency (after confirmation) ---- */
  const remove = async () => {
    if (!removing) return;
    const d = removing;
    startAction('remove');
    try {
      await api.removeDependency(project.projectCode, { blocking: d.blocking, blocked: d.blocked });
      setStatus(t('linker.removed', { blocking: jobLabel(d.blocking, t), blocked: jobLabel(d.blocked, t) }));
      await invalidate(key);
    } catch (e) {
      setRefusal({ title: t('refused.remove'), error: e });
    } finally {
      setRemoving(null);
      setBusy(null);
    }
  };

  const inCycle = highlight.cycle?.nodes;
  const workOrderCount = jobs.filter((j) => j.jobType === 'workOrder').length;

  const renderRow = (job: ProjectJob, index: number, handle: ReactNode) => {
    const ref = refText(job);
    const inPhase = job.jobType !== 'phase' && phaseAt(jobs, index) !== null;
    const dates = formatPlannedRange(job.plannedStart, job.plannedEnd, lang);
    const state = inCycle?.has(ref) ? ' in-cycle' : highlight.overlap?.has(ref) ? ' overlap' : '';
    return (
      <div
        className={`job-row ${job.jobType === 'phase' ? 'phase' : ''}${inPhase ? ' in-phase' : ''}${state}`}
        data-testid="job-row"
        data-job={ref}
      >
        <Text size="xs" c="dimmed" className="job-pos" aria-hidden>
          {index + 1}
        </Text>
        <span className="job-handle">{handle}</span>
        <div className="job-main">
          {job.jobType === 'phase' ? (
            <IconFolder size={16} aria-hidden />
          ) : job.jobType === 'task' ? (
            <IconChecklist size={16} aria-hidden />
          ) : (
            <IconTool size={16} aria-hidden />
          )}
          <VisuallyHidden>{t(`jobType.${job.jobType}`)}</VisuallyHidden>
          {job.jobType === 'workOrder' ? (
            <WorkOrderCode code={job.code} />
          ) : (
            <Text size="sm" fw={job.jobType === 'phase' ? 700 : 500} truncate>
              {job.jobType === 'task' ? t('jobs.task', { code: job.code }) : job.code}
              {job.name ? (
                <Text span c="dimmed" size="sm" fw={400}>
                  {` · ${job.name}`}
                </Text>
              ) : null}
            </Text>
          )}
        </div>
        {dates && (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {dates}
          </Text>
        )}
      </div>
    );
  };

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
        subtitle={t('linker.summary', {
          office: project.officeCode,
          jobs: t('linker.jobs', { count: jobs.length }),
          workOrders: t('linker.workOrders', { count: workOrderCount }),
          dependencies: t('linker.dependencies', { count: dependencies.length }),
        })}
      />
      {completed && (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="rules">
          {t('linker.completedRule')}
        </Alert>
      )}
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
      <div className="linker-columns">
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
              places={places}
              disabledReason={completed ? t('linker.completedAdd') : null}
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
              onLink={add}
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
              onMove={(from, to) => void move(from, to)}
              busy={busy !== null}
              renderRow={renderRow}
              label={t('jobs.listLabel', { code: project.projectCode })}
              testId="job-list"
            />
          )}
        </Paper>
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
                  jobs={jobs}
                  dependencies={dependencies}
                  readOnly={readOnly}
                  highlight={highlight}
                  pending={pending}
                  onDeclare={(a, b) => void declare(a, b)}
                  onRemove={setRemoving}
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
                busy={busy === 'dependency'}
                onDeclare={declare}
                onRemove={setRemoving}
              />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      </div>
      {removing && (
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
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  );
}
