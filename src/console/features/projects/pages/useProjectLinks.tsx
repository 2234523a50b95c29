/**
 * What the project linker does, and what it shows of it: each action (move a work order by
 * a drop, add one found by its code, declare a dependency, remove one) as the link call that
 * reproduces it, with the refusal, the notice, the graph's highlight and the announcement
 * ("moved to position 3") it leaves.
 */
import { Text } from '@mantine/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { ApiError } from '../../../../client/index.ts';
import {
  ProjectManagementCodes as C,
  type JobRef,
  type LinkableWorkOrder,
  type Project,
  parseCyclePath,
  parseOverlaps,
} from '../../../../contract/projectManagement.ts';
import type { GraphHighlight } from '../components/DependencyGraph.tsx';
import { jobLabel } from '../components/jobLabel.ts';
import type { Refusal } from '../components/Refusal.tsx';
import {
  cycleHighlight,
  type DependencyRef,
  dependencyCall,
  formatPlanned,
  moveItem,
  overlapJobs,
  type ProjectPlace,
  projectDropInsertion,
  projectPlaceInsertion,
  refText,
} from '../model.ts';
import { projectKeys, useInvalidateLinks, useProjectsApi } from '../queries.ts';
import type { ProjectsApi } from '../transport.ts';

export const NO_HIGHLIGHT: GraphHighlight = { cycle: null, overlap: null };

/**
 * What an action leaves on screen: the action under way, the refusal or notice, the graph's
 * highlight, and the announcement; an action starting clears the last one's.
 */
function useLinkFeedback() {
  const [busy, setBusy] = useState<'move' | 'add' | 'dependency' | 'remove' | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [highlight, setHighlight] = useState<GraphHighlight>(NO_HIGHLIGHT);
  const [status, setStatus] = useState('');
  const startAction = (kind: NonNullable<typeof busy>) => {
    setBusy(kind);
    setRefusal(null);
    setNotice(null);
    setHighlight(NO_HIGHLIGHT);
  };
  return {
    busy,
    setBusy,
    refusal,
    setRefusal,
    notice,
    setNotice,
    highlight,
    setHighlight,
    status,
    setStatus,
    startAction,
  };
}

export function useProjectLinks({
  project,
  t,
  lang,
  showGraph,
}: {
  project: Project;
  t: TFunction;
  lang: string;
  /** A refused cycle is drawn on the graph: the page shows it. */
  showGraph: () => void;
}) {
  const api = useProjectsApi();
  const qc = useQueryClient();
  const invalidate = useInvalidateLinks();
  const key = projectKeys.project(project.projectCode);

  const fb = useLinkFeedback();
  const [pending, setPending] = useState<DependencyRef | null>(null);
  const [removing, setRemoving] = useState<DependencyRef | null>(null);
  const links: LinkContext = { project, t, api, qc, invalidate, key, fb };

  const { busy, refusal, setRefusal, notice, setNotice, highlight, status } = fb;
  return {
    busy,
    refusal,
    setRefusal,
    notice,
    setNotice,
    highlight,
    pending,
    removing,
    setRemoving,
    status,
    places: addPlaces(project.jobs, t),
    move: moveAction(links),
    add: addAction(links),
    declare: declareAction(links, { lang, setPending, showGraph }),
    remove: removeAction(links, removing, setRemoving),
  };
}

/** What each action works with: the project, the call, its record's query and the feedback. */
interface LinkContext {
  project: Project;
  t: TFunction;
  api: ProjectsApi;
  qc: QueryClient;
  invalidate: ReturnType<typeof useInvalidateLinks>;
  key: ReturnType<typeof projectKeys.project>;
  fb: ReturnType<typeof useLinkFeedback>;
}

/** Drag a work order to a new place: shown there at once, put back if refused. */
function moveAction({ project, t, api, qc, invalidate, key, fb }: LinkContext) {
  const jobs = project.jobs;
  return async (from: number, to: number) => {
    const insertion = projectDropInsertion(jobs, from, to);
    const moved = jobs[from];
    if (!insertion || moved.jobType !== 'workOrder') return;
    fb.startAction('move');
    const before = qc.getQueryData<Project>(key);
    await qc.cancelQueries({ queryKey: key });
    qc.setQueryData<Project>(key, (p) => (p ? { ...p, jobs: moveItem(p.jobs, from, to) } : p));
    try {
      await api.linkToProject(project.projectCode, moved.code, insertion);
      fb.setStatus(t('linker.moved', { code: moved.code, position: to + 1 }));
      await invalidate(key);
    } catch (e) {
      if (before) qc.setQueryData(key, before);
      fb.setRefusal({ title: t('refused.move', { code: moved.code }), error: e });
      fb.setStatus(t('linker.moveRefused', { code: moved.code }));
      void qc.invalidateQueries({ queryKey: key });
    } finally {
      fb.setBusy(null);
    }
  };
}

/** Add a work order found by its code, at the place chosen. */
function addAction({ project, t, api, invalidate, key, fb }: LinkContext) {
  return async (wo: LinkableWorkOrder, place: string): Promise<boolean> => {
    fb.startAction('add');
    try {
      await api.linkToProject(
        project.projectCode,
        wo.workOrderCode,
        projectPlaceInsertion(project.jobs, placeOf(place)),
      );
      fb.setStatus(t('linker.added', { code: wo.workOrderCode }));
      await invalidate(key);
      return true;
    } catch (e) {
      fb.setRefusal({ title: t('refused.add', { code: wo.workOrderCode }), error: e });
      return false;
    } finally {
      fb.setBusy(null);
    }
  };
}

/**
 * Declare a dependency (graph arrow or list): what the call cannot declare is a notice
 * before it; a refused cycle or overlap is drawn on the graph.
 */
function declareAction(
  { project, t, api, invalidate, key, fb }: LinkContext,
  {
    lang,
    setPending,
    showGraph,
  }: { lang: string; setPending: (d: DependencyRef | null) => void; showGraph: () => void },
) {
  const jobs = project.jobs;
  const dependencies = project.dependencies as DependencyRef[];
  return async (blocking: JobRef, blocked: JobRef): Promise<boolean> => {
    const call = dependencyCall(jobs, dependencies, blocking, blocked);
    if (!call.ok) {
      fb.setRefusal(null);
      fb.setHighlight(NO_HIGHLIGHT);
      fb.setNotice(
        t(`dependencies.reasons.${call.reason}`, {
          blocking: jobLabel(blocking, t),
          blocked: jobLabel(blocked, t),
        }),
      );
      return false;
    }
    fb.startAction('dependency');
    setPending({ blocking, blocked });
    try {
      await api.linkToProject(project.projectCode, call.code, call.insertion);
      fb.setStatus(t('linker.declared', { blocking: jobLabel(blocking, t), blocked: jobLabel(blocked, t) }));
      await invalidate(key);
      return true;
    } catch (e) {
      const refused = dependencyRefusal(e, t, lang);
      fb.setHighlight(refused.highlight);
      fb.setRefusal({
        title: t('refused.dependency', { blocking: jobLabel(blocking, t), blocked: jobLabel(blocked, t) }),
        error: e,
        details: refused.details,
        explained: refused.explained,
      });
      // The path is drawn on the graph.
      if (refused.highlight.cycle) showGraph();
      return false;
    } finally {
      setPending(null);
      fb.setBusy(null);
    }
  };
}

/** Remove the dependency being removed, once the user confirmed. */
function removeAction(
  { project, t, api, invalidate, key, fb }: LinkContext,
  removing: DependencyRef | null,
  setRemoving: (d: DependencyRef | null) => void,
) {
  return async () => {
    if (!removing) return;
    const d = removing;
    fb.startAction('remove');
    try {
      await api.removeDependency(project.projectCode, { blocking: d.blocking, blocked: d.blocked });
      fb.setStatus(
        t('linker.removed', { blocking: jobLabel(d.blocking, t), blocked: jobLabel(d.blocked, t) }),
      );
      await invalidate(key);
    } catch (e) {
      fb.setRefusal({ title: t('refused.remove'), error: e });
    } finally {
      setRemoving(null);
      fb.setBusy(null);
    }
  };
}

/** Where the add form may put a work order: last, first, or at the end of a phase. */
function addPlaces(jobs: Project['jobs'], t: TFunction) {
  const phases = jobs.filter((j) => j.jobType === 'phase');
  return [
    { value: 'last', label: t('add.placeLast') },
    { value: 'first', label: t('add.placeFirst') },
    ...phases.map((p) => ({ value: `phase:${p.code}`, label: t('add.placeEndOfPhase', { phase: p.code }) })),
  ];
}

function placeOf(value: string): ProjectPlace {
  return value.startsWith('phase:')
    ? { at: 'endOfPhase', phase: value.slice(6) }
    : { at: value === 'first' ? 'first' : 'last' };
}

/**
 * A dependency refused for a cycle or an overlap: the cycle's path and the overlapping
 * jobs to draw on the graph, a line for each under the refusal, and the codes they explain.
 */
function dependencyRefusal(e: unknown, t: TFunction, lang: string) {
  const errors = e instanceof ApiError ? e.errors : [];
  const cycle = errors.find((x) => x.code === C.dependencyCycle);
  const overlap = errors.find((x) => x.code === C.dependencyOverlap);
  const path = cycle ? parseCyclePath(cycle.message) : undefined;
  const overlaps = overlap ? parseOverlaps(overlap.message) : [];
  const highlight: GraphHighlight = {
    cycle: path ? cycleHighlight(path) : null,
    overlap: overlaps.length ? overlapJobs(overlaps) : null,
  };
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
  return {
    highlight,
    details: details.length ? details : undefined,
    explained: [...(path ? [C.dependencyCycle] : []), ...(overlaps.length ? [C.dependencyOverlap] : [])],
  };
}
