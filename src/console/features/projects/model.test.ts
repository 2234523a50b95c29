/**
 * The linker's pure logic: grouping under phases, drop -> link call (checked against the
 * service's placement rules for every drag of generated lists), dependency -> link call,
 * cycle path -> highlighted graph, service order rules, layout input (run through elkjs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JobRef, parseCyclePath, parseOverlaps } from '../../../contract/projectManagement.ts';
import {
  cycleHighlight,
  dependencyCall,
  edgeId,
  formatPlanned,
  formatPlannedRange,
  formatPlannedShort,
  groupJobs,
  layoutInput,
  moveItem,
  NODE_HEIGHT,
  NODE_WIDTH,
  openingViewport,
  overlapJobs,
  phaseAt,
  positionsOf,
  projectDropInsertion,
  projectPlaceInsertion,
  READABLE_ZOOM,
  serviceOrderCandidateBlock,
  serviceOrderDropInsertion,
  serviceOrderRules,
} from './model.ts';

const phase = (code: string): JobRef => ({ jobType: 'phase', code });
const task = (code: string): JobRef => ({ jobType: 'task', code });
const wo = (code: string): JobRef => ({ jobType: 'workOrder', code });

/** PRJ-E2E of the e2e dataset. */
const PROJECT: JobRef[] = [
  phase('PH-A'),
  task('1'),
  wo('WO-E2E-P1'),
  wo('WO-E2E-P2'),
  phase('PH-B'),
  task('2'),
  wo('WO-E2E-P3'),
  task('3'),
  wo('WO-E2E-P4'),
];

/**
 * The service's placement (docs/api/projectManagement.md: `index` is the place among the other
 * jobs, `before`/`after` next to the named job, first job of that type and code).
 */
function applyInsertion(
  jobs: readonly JobRef[],
  moved: number,
  ins: { insertionMode: string; position?: number; relativePosition?: string; jobType?: string },
): JobRef[] {
  const item = jobs[moved];
  const others = jobs.filter((_, i) => i !== moved);
  let at: number;
  switch (ins.insertionMode) {
    case 'first':
      at = 0;
      break;
    case 'last':
      at = others.length;
      break;
    case 'index':
      at = Math.min(ins.position ?? 0, others.length);
      break;
    default: {
      const rel = others.findIndex(
        (j) => j.code === ins.relativePosition && j.jobType === (ins.jobType ?? 'phase'),
      );
      if (rel < 0) throw new Error(`relativePosition ${ins.relativePosition} not found`);
      at = ins.insertionMode === 'before' ? rel : rel + 1;
    }
  }
  return [...others.slice(0, at), item, ...others.slice(at)];
}

describe('grouping jobs under their phases', () => {
  it('puts each task and work order under the phase before it, keeping project positions', () => {
    const groups = groupJobs(PROJECT);
    expect(groups.map((g) => g.phase?.code ?? null)).toEqual(['PH-A', 'PH-B']);
    expect(groups[0].jobs.map((j) => [j.job.code, j.index])).toEqual([
      ['1', 1],
      ['WO-E2E-P1', 2],
      ['WO-E2E-P2', 3],
    ]);
    expect(groups[1].jobs.map((j) => j.index)).toEqual([5, 6, 7, 8]);
  });

  it('gives jobs before the first phase a group without phase, and keeps empty phases', () => {
    const groups = groupJobs([wo('A'), task('1'), phase('P'), phase('Q'), wo('B')]);
    expect(groups.map((g) => [g.phase?.code ?? null, g.jobs.map((j) => j.job.code)])).toEqual([
      [null, ['A', '1']],
      ['P', []],
      ['Q', ['B']],
    ]);
    expect(groupJobs([])).toEqual([]);
  });

  it('tells the phase a job sits under', () => {
    expect(phaseAt(PROJECT, 3)).toBe('PH-A');
    expect(phaseAt(PROJECT, 8)).toBe('PH-B');
    expect(phaseAt(PROJECT, 4)).toBeNull();
    expect(phaseAt([wo('A'), phase('P')], 0)).toBeNull();
  });
});

describe('a drop in a project -> the link call', () => {
  it('after the job it now follows (a phase: first of that phase)', () => {
    // WO-E2E-P4 dropped right under PH-B.
    expect(projectDropInsertion(PROJECT, 8, 5)).toEqual({
      insertionMode: 'after',
      relativePosition: 'PH-B',
      jobType: 'phase',
    });
    // WO-E2E-P1 dropped after WO-E2E-P2.
    expect(projectDropInsertion(PROJECT, 2, 3)).toEqual({
      insertionMode: 'after',
      relativePosition: 'WO-E2E-P2',
      jobType: 'workOrder',
    });
    // WO-E2E-P3 dropped after task 3.
    expect(projectDropInsertion(PROJECT, 6, 7)).toEqual({
      insertionMode: 'after',
      relativePosition: '3',
      jobType: 'task',
    });
  });

  it('before the job it now precedes when it becomes first', () => {
    expect(projectDropInsertion(PROJECT, 3, 0)).toEqual({
      insertionMode: 'before',
      relativePosition: 'PH-A',
      jobType: 'phase',
    });
  });

  it('index when the neighbour is named twice in the project', () => {
    const jobs = [wo('A'), wo('DUP'), wo('DUP'), wo('B')];
    expect(projectDropInsertion(jobs, 3, 2)).toEqual({ insertionMode: 'index', position: 2 });
  });

  it('nothing when the work order stays where it was', () => {
    expect(projectDropInsertion(PROJECT, 2, 2)).toBeNull();
    expect(projectDropInsertion(PROJECT, 2, 99)).toBeNull();
  });

  it('every drag of any list, applied by the service, gives the order the user sees', () => {
    const job = fc.oneof(
      fc.constantFrom('P1', 'P2').map(phase),
      fc.constantFrom('1', '2', '3').map(task),
      fc.constantFrom('W1', 'W2', 'W3', '1').map(wo),
    );
    fc.assert(
      fc.property(fc.array(job, { minLength: 2, maxLength: 12 }), fc.nat(), fc.nat(), (jobs, a, b) => {
        const from = a % jobs.length;
        const to = b % jobs.length;
        const ins = projectDropInsertion(jobs, from, to);
        if (from === to) return ins === null;
        expect(ins).not.toBeNull();
        expect(applyInsertion(jobs, from, ins as NonNullable<typeof ins>)).toEqual(moveItem(jobs, from, to));
        return true;
      }),
      { numRuns: 400 },
    );
  });
});

describe('a drop in a service order -> the link call', () => {
  const codes = ['SO1', 'SO2', 'SO3', 'SO4'];
  it('first, or after the work order it now follows', () => {
    expect(serviceOrderDropInsertion(codes, 2, 0)).toEqual({ insertionMode: 'first' });
    expect(serviceOrderDropInsertion(codes, 0, 2)).toEqual({
      insertionMode: 'after',
      relativePosition: 'SO3',
    });
    expect(serviceOrderDropInsertion(codes, 3, 1)).toEqual({
      insertionMode: 'after',
      relativePosition: 'SO1',
    });
    expect(serviceOrderDropInsertion(codes, 1, 1)).toBeNull();
  });

  it('every drag, applied by the service, gives the order the user sees', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('A', 'B', 'C', 'D', 'E'), { minLength: 2, maxLength: 10 }),
        fc.nat(),
        fc.nat(),
        (codes, a, b) => {
          const from = a % codes.length;
          const to = b % codes.length;
          const ins = serviceOrderDropInsertion(codes, from, to);
          if (from === to) return ins === null;
          const jobs = codes.map(wo);
          const asProject =
            ins?.insertionMode === 'after'
              ? { ...ins, jobType: 'workOrder' }
              : (ins as NonNullable<typeof ins>);
          expect(applyInsertion(jobs, from, asProject)).toEqual(moveItem(jobs, from, to));
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('adding a work order at a place of the project', () => {
  it('first, last, or at the end of a phase (before the next phase; last for the last phase)', () => {
    expect(projectPlaceInsertion(PROJECT, { at: 'first' })).toEqual({ insertionMode: 'first' });
    expect(projectPlaceInsertion(PROJECT, { at: 'last' })).toEqual({ insertionMode: 'last' });
    expect(projectPlaceInsertion(PROJECT, { at: 'endOfPhase', phase: 'PH-A' })).toEqual({
      insertionMode: 'before',
      relativePosition: 'PH-B',
      jobType: 'phase',
    });
    expect(projectPlaceInsertion(PROJECT, { at: 'endOfPhase', phase: 'PH-B' })).toEqual({
      insertionMode: 'last',
    });
  });
});

describe('a dependency drawn on the graph -> the link call', () => {
  const deps = [{ blocking: task('1'), blocked: wo('WO-E2E-P1') }];
  it('sends the blocking work order again at its own place, with block', () => {
    expect(dependencyCall(PROJECT, deps, wo('WO-E2E-P2'), task('3'))).toEqual({
      ok: true,
      code: 'WO-E2E-P2',
      insertion: { insertionMode: 'index', position: 3, block: [{ jobType: 'task', code: '3' }] },
    });
    // The place it is sent to is its own: the order does not change.
    expect(applyInsertion(PROJECT, 3, { insertionMode: 'index', position: 3 })).toEqual(PROJECT);
  });

  it('a task blocking a work order: the work order with isBlockedBy', () => {
    expect(dependencyCall(PROJECT, deps, task('3'), wo('WO-E2E-P4'))).toEqual({
      ok: true,
      code: 'WO-E2E-P4',
      insertion: { insertionMode: 'index', position: 8, isBlockedBy: [{ jobType: 'task', code: '3' }] },
    });
  });

  it('refuses what the link call cannot declare, and what already exists', () => {
    expect(dependencyCall(PROJECT, deps, task('1'), task('2'))).toEqual({ ok: false, reason: 'tasksOnly' });
    expect(dependencyCall(PROJECT, deps, phase('PH-A'), wo('WO-E2E-P1'))).toEqual({
      ok: false,
      reason: 'phase',
    });
    expect(dependencyCall(PROJECT, deps, wo('WO-E2E-P1'), wo('WO-E2E-P1'))).toEqual({
      ok: false,
      reason: 'self',
    });
    expect(dependencyCall(PROJECT, deps, task('1'), wo('WO-E2E-P1'))).toEqual({
      ok: false,
      reason: 'exists',
    });
    expect(dependencyCall(PROJECT, deps, wo('NOPE'), task('1'))).toEqual({
      ok: false,
      reason: 'notInProject',
    });
  });
});

describe('a refused cycle -> what the graph highlights', () => {
  it("reads the service's message and gives every job and edge of the path", () => {
    const message =
      'The dependencies would close a cycle: workOrder:WO-E2E-P2 -> task:1 -> workOrder:WO-E2E-P1 -> workOrder:WO-E2E-P2';
    const h = cycleHighlight(parseCyclePath(message));
    expect([...h.nodes]).toEqual(['workOrder:WO-E2E-P2', 'task:1', 'workOrder:WO-E2E-P1']);
    expect(h.edges.map((e) => e.id)).toEqual([
      'workOrder:WO-E2E-P2->task:1',
      'task:1->workOrder:WO-E2E-P1',
      'workOrder:WO-E2E-P1->workOrder:WO-E2E-P2',
    ]);
    // The ids are the graph's edge ids: existing dependencies light up.
    expect(h.edges[1].id).toBe(edgeId(task('1'), wo('WO-E2E-P1')));
  });

  it('nothing without a path', () => {
    expect(cycleHighlight(parseCyclePath('refused'))).toEqual({ nodes: new Set(), edges: [] });
    expect(cycleHighlight(undefined).edges).toEqual([]);
  });

  it('an overlap names both jobs and their colliding dates', () => {
    const o = overlapJobs(
      parseOverlaps(
        'blocking task:3 ends 2030-01-14T12:00:00Z but blocked workOrder:WO-E2E-P3 starts 2030-01-14T09:00:00Z',
      ),
    );
    expect(Object.fromEntries(o)).toEqual({
      'task:3': { end: '2030-01-14T12:00:00Z' },
      'workOrder:WO-E2E-P3': { start: '2030-01-14T09:00:00Z' },
    });
  });
});

describe('service order rules shown before the user tries', () => {
  const wos = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ code: `W${i}`, uuid: `u${i}`, status: 'NEW' as const }));
  it('4 of 5: can add and reorder', () => {
    expect(serviceOrderRules({ status: 'open', maxWorkOrders: 5, workOrders: wos(4) })).toEqual({
      count: 4,
      max: 5,
      closed: false,
      full: false,
      canReorder: true,
      canAdd: true,
    });
  });
  it('full: reorder only; completed or validated: nothing', () => {
    const full = serviceOrderRules({ status: 'inProgress', maxWorkOrders: 5, workOrders: wos(5) });
    expect([full.full, full.canAdd, full.canReorder]).toEqual([true, false, true]);
    for (const status of ['completed', 'validated'] as const) {
      const done = serviceOrderRules({ status, maxWorkOrders: 5, workOrders: wos(1) });
      expect([done.closed, done.canAdd, done.canReorder]).toEqual([true, false, false]);
    }
  });
  it('a candidate already here, or completed on a route, is told before the call', () => {
    const here = { kind: 'standard' as const, code: 'SO-E2E' };
    expect(
      serviceOrderCandidateBlock(
        { status: 'NEW', serviceOrderCode: 'SO-E2E', serviceOrderKind: 'standard' },
        here,
      ),
    ).toBe('alreadyHere');
    expect(
      serviceOrderCandidateBlock(
        { status: 'COMPLETED', serviceOrderCode: 'RT-E2E', serviceOrderKind: 'route' },
        here,
      ),
    ).toBe('doneOnRoute');
    expect(
      serviceOrderCandidateBlock(
        { status: 'NEW', serviceOrderCode: 'RT-E2E', serviceOrderKind: 'route' },
        here,
      ),
    ).toBeNull();
    expect(
      serviceOrderCandidateBlock(
        { status: 'COMPLETED', serviceOrderCode: null, serviceOrderKind: null },
        here,
      ),
    ).toBeNull();
  });
});

describe('the layered layout', () => {
  const deps = [
    { blocking: task('1'), blocked: wo('WO-E2E-P1') },
    { blocking: wo('WO-E2E-P1'), blocked: wo('WO-E2E-P2') },
    { blocking: task('2'), blocked: wo('WO-E2E-P3') },
  ];

  it('takes tasks and work orders in project order, phases left out, one edge per dependency', () => {
    const g = layoutInput(PROJECT, deps);
    expect(g.children.map((c) => c.id)).toEqual([
      'task:1',
      'workOrder:WO-E2E-P1',
      'workOrder:WO-E2E-P2',
      'task:2',
      'workOrder:WO-E2E-P3',
      'task:3',
      'workOrder:WO-E2E-P4',
    ]);
    expect(g.edges).toEqual([
      { id: 'task:1->workOrder:WO-E2E-P1', sources: ['task:1'], targets: ['workOrder:WO-E2E-P1'] },
      {
        id: 'workOrder:WO-E2E-P1->workOrder:WO-E2E-P2',
        sources: ['workOrder:WO-E2E-P1'],
        targets: ['workOrder:WO-E2E-P2'],
      },
      { id: 'task:2->workOrder:WO-E2E-P3', sources: ['task:2'], targets: ['workOrder:WO-E2E-P3'] },
    ]);
    expect(g.layoutOptions['elk.algorithm']).toBe('layered');
    expect(layoutInput(PROJECT, deps, { onlyLinked: true }).children).toHaveLength(5);
  });

  it('a large graph takes the faster options (no model order, straight arrows)', () => {
    const many = Array.from({ length: 250 }, (_, i) => wo(`W${i}`));
    const g = layoutInput(many, []);
    expect(g.children).toHaveLength(250);
    expect(g.layoutOptions['elk.layered.considerModelOrder.strategy']).toBe('NONE');
    expect(g.layoutOptions['elk.edgeRouting']).toBe('POLYLINE');
    expect(layoutInput(PROJECT, deps).layoutOptions['elk.edgeRouting']).toBe('SPLINES');
  });

  it('laid out by elkjs: each blocking job left of the jobs it blocks', async () => {
    const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
    const positions = positionsOf(await new ELK().layout(layoutInput(PROJECT, deps)));
    expect(positions.size).toBe(7);
    for (const d of deps) {
      const a = positions.get(`${d.blocking.jobType}:${d.blocking.code}`);
      const b = positions.get(`${d.blocked.jobType}:${d.blocked.code}`);
      expect((a?.x ?? 0) < (b?.x ?? 0)).toBe(true);
    }
  });
});

describe('the graph opens readable', () => {
  const at = (entries: [string, number, number][]) => new Map(entries.map(([id, x, y]) => [id, { x, y }]));

  it('a graph that fits at a readable zoom: whole and centered, no larger than 1.1', () => {
    const v = openingViewport(at([['a', 0, 0]]), { width: 600, height: 400 });
    expect(v).toEqual({
      x: (600 - NODE_WIDTH * 1.1) / 2,
      y: (400 - NODE_HEIGHT * 1.1) / 2,
      zoom: 1.1,
      fits: true,
    });
  });

  it('a graph too large for the pane: readable zoom, from where reading starts', () => {
    const wide = at([
      ['a', 0, 0],
      ['b', 2000, 50],
    ]);
    const v = openingViewport(wide, { width: 530, height: 390 });
    expect(v.fits).toBe(false);
    expect(v.zoom).toBe(READABLE_ZOOM);
    // 12 px text at this zoom: 11 px on the screen.
    expect(12 * v.zoom).toBeGreaterThanOrEqual(11);
    expect(v).toMatchObject({ x: 16, y: 16 });
    // Right to left: the right edge of the graph at the right of the pane.
    const rtl = openingViewport(wide, { width: 530, height: 390 }, 'rtl');
    expect(rtl.x + (2000 + NODE_WIDTH) * rtl.zoom).toBeCloseTo(530 - 16);
  });

  it('laid out in the reading direction', () => {
    expect(layoutInput([], [], {}).layoutOptions['elk.direction']).toBe('RIGHT');
    expect(layoutInput([], [], { direction: 'rtl' }).layoutOptions['elk.direction']).toBe('LEFT');
  });
});

describe('planned dates', () => {
  it('in short, in UTC, the end day left out on the same day', () => {
    expect(formatPlannedRange('2030-01-06T08:00:00Z', '2030-01-07T17:00:00Z', 'en-GB')).toBe(
      '6 Jan 08:00 → 7 Jan 17:00',
    );
    expect(formatPlannedRange('2030-01-14T09:00:00Z', '2030-01-14T10:00:00Z', 'en-GB')).toBe(
      '14 Jan 09:00 → 10:00',
    );
    expect(formatPlannedRange(null, '2030-01-14T10:00:00Z', 'en-GB')).toBe('→ 14 Jan 10:00');
    expect(formatPlannedRange(null, null, 'en')).toBeNull();
    expect(formatPlanned('2030-01-14T12:00:00Z', 'en-GB')).toBe('14 Jan 2030, 12:00 UTC');
    expect(formatPlanned('2030-01-14T09:00:00Z', 'en')).toBe('Jan 14, 2030, 09:00 UTC');
    expect(formatPlanned(null, 'en')).toBeNull();
    expect(formatPlannedShort('2030-01-14T12:00:00Z', 'fr')).toBe('14 janv. 12:00');
  });
});
