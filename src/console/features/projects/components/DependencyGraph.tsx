/**
 * The project's dependency graph (React Flow), laid out in the reading direction by elkjs in
 * a web worker (../layout.ts, loaded with the first graph): one node per task and work order,
 * one arrow per dependency from the blocking job to the job it blocks. It opens readable (the
 * whole graph if it fits at 11 px text, else the start of it with a minimap and the wheel to
 * reach the rest) and keeps the planner's pan and zoom across changes and tab switches. Drawing an arrow from a
 * job's right handle to another job's left handle declares "this blocks that" (the owner
 * sends the link call); an arrow, selected by a click or by the keyboard (Tab, Enter), is
 * removed with its button or the Delete key, after the owner's confirmation. A refused cycle
 * draws its path in red (the refused arrow dashed), an overlap outlines both jobs with the
 * dates that collide. Loaded lazily with the linker: React Flow is not in the page's chunk.
 */
import '@xyflow/react/dist/style.css';
import './graph.css';
import { Button, Group, Loader, Paper, Switch, Text, useComputedColorScheme } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  Handle,
  MarkerType,
  MiniMap,
  type Node,
  type NodeProps,
  Panel,
  type PanelPosition,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import type { TFunction } from 'i18next';
import { memo, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobRef, ProjectJob } from '../../../../contract/projectManagement.ts';
import {
  type CycleHighlight,
  type DependencyRef,
  edgeId,
  formatPlannedRange,
  formatPlannedShort,
  isDependencyJob,
  layoutInput,
  NODE_HEIGHT,
  NODE_WIDTH,
  openingViewport,
  phaseAt,
  refText,
  type Viewport,
} from '../model.ts';
import { jobLabel } from './jobLabel.ts';

export interface GraphHighlight {
  cycle: CycleHighlight | null;
  /** Jobs of a refused overlap with the dates that collide, by `jobType:code`. */
  overlap: Map<string, { start?: string; end?: string }> | null;
}

export interface DependencyGraphProps {
  /** What the planner's pan and zoom are kept under (the project's code). */
  viewKey: string;
  jobs: readonly ProjectJob[];
  dependencies: readonly DependencyRef[];
  /** Why no dependency can change (a completed project), or null. */
  readOnly: string | null;
  highlight: GraphHighlight;
  /** The dependency being declared (drawn dashed until the service answers). */
  pending: DependencyRef | null;
  onDeclare: (blocking: JobRef, blocked: JobRef) => void;
  onRemove: (dependency: DependencyRef) => void;
}

interface JobNodeData extends Record<string, unknown> {
  job: ProjectJob;
  phase: string | null;
  state: 'cycle' | 'overlap' | null;
  /** The overlap's dates, shown on the node. */
  collide?: { start?: string; end?: string };
  readOnly: boolean;
  rtl: boolean;
}
type JobNode = Node<JobNodeData, 'job'>;

const JobNodeView = memo(function JobNodeView({ data }: NodeProps<JobNode>) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.resolvedLanguage ?? 'en';
  const { job, phase, state, collide } = data;
  const title = job.jobType === 'task' ? t('jobs.task', { code: job.code }) : job.code;
  const dates = formatPlannedRange(job.plannedStart, job.plannedEnd, lang);
  return (
    <div
      className={`job-node job-${job.jobType}${state ? ` job-${state}` : ''}`}
      style={{ width: NODE_WIDTH, height: NODE_HEIGHT }}
      data-testid="graph-node"
      data-job={refText(job)}
      data-state={state ?? undefined}
    >
      <Handle
        type="target"
        position={data.rtl ? Position.Right : Position.Left}
        isConnectable={!data.readOnly}
      />
      <Text size="xs" c="dimmed" truncate>
        {t(`jobType.${job.jobType}`)}
        {phase ? ` · ${phase}` : ''}
      </Text>
      <Text size="sm" fw={600} truncate ff={job.jobType === 'workOrder' ? 'monospace' : undefined}>
        {job.jobType === 'task' && job.name ? `${title} · ${job.name}` : title}
      </Text>
      {collide ? (
        <Text size="xs" fw={600} className="overlap-dates" truncate data-testid="overlap-dates">
          {collide.end
            ? t('graph.endsAt', { date: formatPlannedShort(collide.end, lang) })
            : t('graph.startsAt', { date: formatPlannedShort(collide.start, lang) })}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" truncate>
          {dates ?? t('jobs.noDates')}
        </Text>
      )}
      <Handle
        type="source"
        position={data.rtl ? Position.Left : Position.Right}
        isConnectable={!data.readOnly}
      />
    </div>
  );
});

const nodeTypes = { job: JobNodeView };
/** Above this many tasks and work orders, the graph starts with the jobs that have dependencies. */
export const GRAPH_ALL_LIMIT = 150;
/** Arrowheads (a marker without a color takes React Flow's default one). */
const ARROW = { type: MarkerType.ArrowClosed, width: 18, height: 18 };
const RED_ARROW = { ...ARROW, width: 10, height: 10, color: '#e03131' };

/** The planner's last pan and zoom of each project's graph, for this visit of the console. */
const views = new Map<string, Viewport>();

const sameRef = (a: JobRef, b: JobRef) => a.jobType === b.jobType && a.code === b.code;

/** A job reference out of a node id (`task:3`, `workOrder:WO-1`). */
function refOf(id: string): JobRef {
  const at = id.indexOf(':');
  return { jobType: id.slice(0, at) as JobRef['jobType'], code: id.slice(at + 1) };
}

/**
 * Where each node goes (the ELK layout, loaded on first use): worked out again only when the
 * jobs or dependencies shown change, not for a highlight or a pending arrow.
 */
function useLayout(
  jobs: DependencyGraphProps['jobs'],
  dependencies: DependencyGraphProps['dependencies'],
  showAll: boolean,
  direction: 'ltr' | 'rtl',
) {
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }> | null>(null);
  const [layoutError, setLayoutError] = useState<unknown>(null);
  const input = useMemo(
    () => layoutInput(jobs, dependencies, { onlyLinked: !showAll, direction }),
    [jobs, dependencies, showAll, direction],
  );
  const inputKey = JSON.stringify([direction, input.children.map((c) => c.id), input.edges.map((e) => e.id)]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the graph's content, not the object
  useEffect(() => {
    let live = true;
    import('../layout.ts')
      .then((m) => m.layoutGraph(input))
      .then((p) => {
        if (!live) return;
        setPositions(p);
        setLayoutError(null);
      })
      .catch((e) => live && setLayoutError(e));
    return () => {
      live = false;
    };
  }, [inputKey]);

  return { input, positions, layoutError };
}

/** The graph's nodes: each job that can have dependencies, where the layout put it. */
function nodesOf(
  jobs: DependencyGraphProps['jobs'],
  positions: Map<string, { x: number; y: number }>,
  highlight: DependencyGraphProps['highlight'],
  readOnly: boolean,
  direction: 'ltr' | 'rtl',
  t: TFunction<'projects'>,
): JobNode[] {
  return jobs.flatMap((job, index) => {
    if (!isDependencyJob(job)) return [];
    const id = refText(job);
    const at = positions.get(id);
    if (!at) return [];
    const collide = highlight.overlap?.get(id);
    return [
      {
        id,
        type: 'job' as const,
        position: at,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        data: {
          job,
          phase: phaseAt(jobs, index),
          state: highlight.cycle?.nodes.has(id) ? 'cycle' : collide ? 'overlap' : null,
          collide,
          readOnly,
          rtl: direction === 'rtl',
        },
        draggable: false,
        deletable: false,
        selectable: false,
        ariaLabel: job.jobType === 'task' ? t('jobs.task', { code: job.code }) : job.code,
      },
    ];
  });
}

/** The arrows: each dependency, a cycle's refused arrow, and the one being declared. */
function edgesOf(
  dependencies: DependencyGraphProps['dependencies'],
  highlight: DependencyGraphProps['highlight'],
  pending: DependencyGraphProps['pending'],
  readOnly: boolean,
  selected: string | null,
  t: TFunction<'projects'>,
): Edge[] {
  const inCycle = new Set(highlight.cycle?.edges.map((e) => e.id));
  const label = (d: DependencyRef) =>
    t('graph.edgeLabel', { blocking: jobLabel(d.blocking, t), blocked: jobLabel(d.blocked, t) });
  const out: Edge[] = dependencies.map((d) => {
    const id = edgeId(d.blocking, d.blocked);
    const red = inCycle.has(id);
    return {
      id,
      source: refText(d.blocking),
      target: refText(d.blocked),
      className: red ? 'dep-edge in-cycle' : 'dep-edge',
      markerEnd: red ? RED_ARROW : ARROW,
      ariaLabel: label(d),
      deletable: !readOnly,
      selected: selected === id,
    };
  });
  // The refused arrow of a cycle, drawn where it would have gone.
  for (const e of highlight.cycle?.edges ?? [])
    if (!dependencies.some((d) => sameRef(d.blocking, e.blocking) && sameRef(d.blocked, e.blocked)))
      out.push({
        id: `refused:${e.id}`,
        source: refText(e.blocking),
        target: refText(e.blocked),
        className: 'dep-edge in-cycle refused',
        markerEnd: RED_ARROW,
        ariaLabel: t('graph.refusedEdge', { edge: label(e) }),
        deletable: false,
        selectable: false,
        focusable: false,
      });
  if (
    pending &&
    !dependencies.some((d) => sameRef(d.blocking, pending.blocking) && sameRef(d.blocked, pending.blocked))
  )
    out.push({
      id: `pending:${edgeId(pending.blocking, pending.blocked)}`,
      source: refText(pending.blocking),
      target: refText(pending.blocked),
      className: 'dep-edge pending',
      animated: true,
      markerEnd: ARROW,
      deletable: false,
      selectable: false,
      focusable: false,
    });
  return out;
}

/** A box over one corner of the graph. */
function GraphPanel({
  position,
  shadow,
  children,
}: {
  position: PanelPosition;
  shadow: 'xs' | 'sm';
  children: ReactNode;
}) {
  return (
    <Panel position={position}>
      <Paper withBorder shadow={shadow} p={6} radius="md">
        {children}
      </Paper>
    </Panel>
  );
}

/** The arrow selected, named, with its removal. */
function SelectedDependency({
  dependency,
  onRemove,
}: {
  dependency: DependencyRef;
  onRemove: (d: DependencyRef) => void;
}) {
  const { t } = useTranslation('projects');
  return (
    <GraphPanel position="top-right" shadow="sm">
      <Group gap="xs" wrap="nowrap">
        <Text size="xs" data-testid="selected-dependency">
          {t('graph.edgeLabel', {
            blocking: jobLabel(dependency.blocking, t),
            blocked: jobLabel(dependency.blocked, t),
          })}
        </Text>
        <Button
          size="compact-xs"
          color="red"
          variant="light"
          leftSection={<IconTrash size={12} />}
          onClick={() => onRemove(dependency)}
          data-testid="remove-selected-dependency"
        >
          {t('dependencies.remove')}
        </Button>
      </Group>
    </GraphPanel>
  );
}

/** React Flow's own labels, in the console's language. */
const flowAriaLabels = (t: TFunction<'projects'>) => ({
  'node.a11yDescription.default': t('graph.a11y.node'),
  'node.a11yDescription.keyboardDisabled': t('graph.a11y.node'),
  'edge.a11yDescription.default': t('graph.a11y.edge'),
  'controls.ariaLabel': t('graph.a11y.controls'),
  'controls.zoomIn.ariaLabel': t('graph.a11y.zoomIn'),
  'controls.zoomOut.ariaLabel': t('graph.a11y.zoomOut'),
  'controls.fitView.ariaLabel': t('graph.a11y.fitView'),
  'controls.interactive.ariaLabel': t('graph.a11y.interactive'),
  'handle.ariaLabel': t('graph.a11y.handle'),
  'minimap.ariaLabel': t('graph.a11y.minimap'),
});

/** A large project shows the jobs that have dependencies first (all of them on demand). */
function useShowAll(jobs: DependencyGraphProps['jobs']) {
  const total = useMemo(() => jobs.filter(isDependencyJob).length, [jobs]);
  const large = total > GRAPH_ALL_LIMIT;
  const [showAll, setShowAll] = useState(!large);
  return { total, large, showAll, setShowAll };
}

/**
 * The first layout sets the view (the planner's last one, else a readable opening);
 * later layouts and resizes keep whatever the planner panned and zoomed to.
 */
function useOpeningView(
  positions: Map<string, { x: number; y: number }> | null,
  direction: 'ltr' | 'rtl',
  viewKey: string,
  flow: ReturnType<typeof useReactFlow>,
) {
  const wrapper = useRef<HTMLDivElement>(null);
  const placed = useRef(false);
  const [fits, setFits] = useState(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first layout
  useEffect(() => {
    if (!positions || placed.current || !wrapper.current) return;
    placed.current = true;
    const pane = { width: wrapper.current.clientWidth, height: wrapper.current.clientHeight };
    const opening = openingViewport(positions, pane, direction);
    setFits(opening.fits);
    void flow.setViewport(views.get(viewKey) ?? opening);
  }, [positions]);
  return { wrapper, placed, fits };
}

/** The nodes and arrows (each worked out again only when what it draws changes), and the arrow selected. */
function useGraphElements(
  { jobs, dependencies, readOnly, highlight, pending }: DependencyGraphProps,
  positions: Map<string, { x: number; y: number }> | null,
  direction: 'ltr' | 'rtl',
  selected: string | null,
  t: TFunction<'projects'>,
) {
  const nodes = useMemo(
    () => (positions ? nodesOf(jobs, positions, highlight, readOnly !== null, direction, t) : []),
    [jobs, positions, highlight, readOnly, direction, t],
  );

  const edges = useMemo(
    () => edgesOf(dependencies, highlight, pending, readOnly !== null, selected, t),
    [dependencies, highlight, pending, readOnly, selected, t],
  );

  const selectedDependency = selected
    ? dependencies.find((d) => edgeId(d.blocking, d.blocked) === selected)
    : undefined;
  return { nodes, edges, selectedDependency };
}

/** Said instead of the graph when the layout failed. */
function LayoutFailed() {
  const { t } = useTranslation('projects');
  return (
    <Text size="sm" c="red" p="md" role="alert">
      {t('graph.layoutFailed')}
    </Text>
  );
}

/** Said while the first layout is worked out. */
function LayingOut() {
  const { t } = useTranslation('projects');
  return (
    <Group gap="xs" p="md" style={{ position: 'absolute', zIndex: 5 }} role="status">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        {t('graph.layingOut')}
      </Text>
    </Group>
  );
}

/** The switch between the jobs that have dependencies and all of them. */
function ShowAllSwitch({
  total,
  shown,
  showAll,
  onChange,
}: {
  total: number;
  shown: number;
  showAll: boolean;
  onChange: (showAll: boolean) => void;
}) {
  const { t } = useTranslation('projects');
  return (
    <GraphPanel position="top-left" shadow="xs">
      <Switch
        size="xs"
        checked={showAll}
        onChange={(e) => onChange(e.currentTarget.checked)}
        label={t('graph.showAll', { total })}
        description={showAll ? undefined : t('graph.linkedOnly', { shown })}
        data-testid="graph-show-all"
      />
    </GraphPanel>
  );
}

/** A graph that does not fit at the opening: where the view is in the whole. */
function OverviewMap() {
  return (
    <MiniMap
      pannable
      zoomable
      // Above the zoom buttons, in the corner the opening view leaves empty.
      position="bottom-right"
      style={{ width: 120, height: 72, marginBottom: 52 }}
      nodeStrokeWidth={3}
    />
  );
}

/** Delete on a selected arrow asks the owner (who confirms): React Flow removes nothing itself. */
function removeThroughOwner(
  dependencies: DependencyGraphProps['dependencies'],
  readOnly: DependencyGraphProps['readOnly'],
  onRemove: DependencyGraphProps['onRemove'],
) {
  return async ({ edges: doomed }: { edges: Edge[] }) => {
    const d = doomed[0] && dependencies.find((x) => edgeId(x.blocking, x.blocked) === doomed[0].id);
    if (d && readOnly === null) onRemove(d);
    return false;
  };
}

/** Controlled edges: a click, or Enter on a focused arrow, selects it (one at a time). */
function selectEdges(
  changes: EdgeChange<Edge>[],
  setSelected: (update: (selected: string | null) => string | null) => void,
) {
  for (const c of changes)
    if (c.type === 'select') setSelected((s) => (c.selected ? c.id : s === c.id ? null : s));
}

function Graph(props: DependencyGraphProps) {
  const { viewKey, jobs, dependencies, readOnly, onDeclare, onRemove } = props;
  const { t, i18n } = useTranslation('projects');
  const direction = i18n.dir() === 'rtl' ? 'rtl' : 'ltr';
  const scheme = useComputedColorScheme('light');
  const flow = useReactFlow();
  const [selected, setSelected] = useState<string | null>(null);
  const { total, large, showAll, setShowAll } = useShowAll(jobs);
  const { input, positions, layoutError } = useLayout(jobs, dependencies, showAll, direction);
  const { wrapper, placed, fits } = useOpeningView(positions, direction, viewKey, flow);

  const { nodes, edges, selectedDependency } = useGraphElements(props, positions, direction, selected, t);

  const connect = (c: Connection) => {
    if (!c.source || !c.target) return;
    onDeclare(refOf(c.source), refOf(c.target));
  };

  if (layoutError) return <LayoutFailed />;

  return (
    <div
      ref={wrapper}
      className="dep-graph"
      style={{ height: '100%', width: '100%', position: 'relative' }}
      data-testid="graph"
    >
      {!positions && <LayingOut />}
      <ReactFlow<JobNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onConnect={connect}
        isValidConnection={(c) => c.source !== c.target}
        nodesDraggable={false}
        nodesConnectable={readOnly === null}
        elementsSelectable
        edgesFocusable
        onEdgesChange={(changes) => selectEdges(changes, setSelected)}
        onPaneClick={() => setSelected(null)}
        onMoveEnd={(_, viewport) => {
          if (placed.current) views.set(viewKey, viewport);
        }}
        // The wheel scrolls through the graph; a pinch or Ctrl + wheel zooms.
        panOnScroll
        onBeforeDelete={removeThroughOwner(dependencies, readOnly, onRemove)}
        deleteKeyCode={['Delete', 'Backspace']}
        colorMode={scheme}
        defaultMarkerColor={scheme === 'dark' ? '#a6a7ab' : '#868e96'}
        minZoom={0.2}
        // A keyboard user tabbing to a node off the screen is brought to it.
        autoPanOnNodeFocus
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        onlyRenderVisibleElements={nodes.length > 200}
        ariaLabelConfig={flowAriaLabels(t)}
      >
        <Background gap={20} />
        {large && (
          <ShowAllSwitch
            total={total}
            shown={input.children.length}
            showAll={showAll}
            onChange={setShowAll}
          />
        )}
        <Controls showInteractive={false} position="bottom-right" orientation="horizontal" />
        {!fits && <OverviewMap />}
        {selectedDependency && readOnly === null && (
          <SelectedDependency dependency={selectedDependency} onRemove={onRemove} />
        )}
      </ReactFlow>
    </div>
  );
}

export function DependencyGraph(props: DependencyGraphProps) {
  return (
    <ReactFlowProvider>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}
