import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ProjectManagementCodes as C,
  deleteProjectDependency,
  getProject,
  linkProject,
  PROJECT_LINK_CODES,
  parseCyclePath,
  parseOverlaps,
} from '../../../contract/projectManagement.ts';
import { runImport } from '../../cli/importFile.ts';
import { codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { projectFixture, UNLIMITED } from './fixture.ts';

let t: TestApp;
const fixture = projectFixture();
beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
  await runImport(t.db, fixture);
});
afterAll(() => t.close());
/** Puts the projects back as the fixture has them (jobs and dependencies replaced). */
const reset = () => runImport(t.db, { projects: fixture.projects });

const link = (project: string, body: unknown, as: TestClient = 'root') =>
  t.api(linkProject, { params: { projectCode: project }, body, as });
const linkWo = (project: string, code: string, insertion?: unknown, as: TestClient = 'root') =>
  link(project, { type: 'workOrder', code, ...(insertion === undefined ? {} : { insertion }) }, as);
type Answer = Awaited<ReturnType<typeof link>>;
async function refused(answer: Answer | Promise<Answer>, expected: string[]) {
  const res = await answer;
  expect(res.statusCode, res.body).toBe(400);
  expect(codesOf(res)).toEqual(expected);
  return res.json().errors as { code: string; message: string }[];
}
async function ok(answer: Answer | Promise<Answer>) {
  const res = await answer;
  expect(res.statusCode, res.body).toBe(204);
}
const project = async (code: string) => {
  const res = await t.api(getProject, { params: { projectCode: code } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const jobs = async (code: string) =>
  ((await project(code)).jobs as { jobType: string; code: string }[]).map((j) => `${j.jobType}:${j.code}`);
type Ref = { jobType: string; code: string };
const deps = async (code: string) =>
  ((await project(code)).dependencies as { blocking: Ref; blocked: Ref }[]).map(
    (d) => `${d.blocking.jobType}:${d.blocking.code}>${d.blocked.jobType}:${d.blocked.code}`,
  );
const FIXTURE_JOBS = [
  'phase:PH-1',
  'task:1',
  'workOrder:WO-N1',
  'task:2',
  'phase:PH-2',
  'workOrder:WO-N2',
  'task:3',
];

describe('project link: positions', () => {
  beforeEach(reset);

  it('links last by default, and at first, index, before and after (relative job types)', async () => {
    await ok(linkWo('P-NORTH', 'WO-N3'));
    expect(await jobs('P-NORTH')).toEqual([...FIXTURE_JOBS, 'workOrder:WO-N3']);
    await ok(linkWo('P-NORTH', 'wo-n4', { insertionMode: 'first' }));
    await ok(linkWo('P-NORTH', 'WO-N5', { insertionMode: 'index', position: 2 }));
    // relativePosition names a phase by default.
    await ok(linkWo('P-NORTH', 'WO-N6', { insertionMode: 'before', relativePosition: 'ph-2' }));
    await ok(linkWo('P-NORTH', 'WO-N7', { insertionMode: 'after', relativePosition: '2', jobType: 'task' }));
    await ok(
      linkWo('P-NORTH', 'WO-A1', { insertionMode: 'AFTER', relativePosition: 'WO-N2', jobType: 'workOrder' }),
    );
    expect(await jobs('P-NORTH')).toEqual([
      'workOrder:WO-N4',
      'phase:PH-1',
      'workOrder:WO-N5',
      'task:1',
      'workOrder:WO-N1',
      'task:2',
      'workOrder:WO-N7',
      'workOrder:WO-N6',
      'phase:PH-2',
      'workOrder:WO-N2',
      'workOrder:WO-A1',
      'task:3',
      'workOrder:WO-N3',
    ]);
  });

  it('moves a work order inside its project; index is the place it takes; past the end is last', async () => {
    await ok(linkWo('P-NORTH', 'WO-N1', { insertionMode: 'index', position: 0 }));
    expect((await jobs('P-NORTH'))[0]).toBe('workOrder:WO-N1');
    await ok(linkWo('P-NORTH', 'WO-N1', { insertionMode: 'index', position: 3 }));
    expect((await jobs('P-NORTH'))[3]).toBe('workOrder:WO-N1');
    await ok(linkWo('P-NORTH', 'WO-N1', { insertionMode: 'index', position: 1e20 }));
    expect(await jobs('P-NORTH')).toEqual([
      ...FIXTURE_JOBS.filter((j) => j !== 'workOrder:WO-N1'),
      'workOrder:WO-N1',
    ]);
    // type and modes are case-insensitive; the code too.
    await ok(link('P-NORTH', { type: 'WORKORDER', code: 'wo-n1', insertion: { insertionMode: 'First' } }));
    expect((await jobs('P-NORTH'))[0]).toBe('workOrder:WO-N1');
    expect(await jobs('P-NORTH')).toHaveLength(FIXTURE_JOBS.length);
  });

  it('takes a work order from another project (its dependencies there are removed)', async () => {
    await ok(linkWo('P-A', 'WO-A1'));
    await ok(linkWo('P-A', 'WO-A2', { isBlockedBy: [{ jobType: 'workOrder', code: 'WO-A1' }] }));
    await ok(linkWo('P-NORTH', 'WO-A1', { insertionMode: 'first' }));
    expect(await jobs('P-A')).toEqual(['workOrder:WO-A2']);
    expect(await deps('P-A')).toEqual([]);
    expect((await jobs('P-NORTH'))[0]).toBe('workOrder:WO-A1');
  });

  it('keeps the order after many insertions at one place (the order keys are renumbered)', async () => {
    await runImport(t.db, {
      projects: [
        {
          projectCode: 'P-MANY',
          name: 'Many',
          officeCode: 'NORTH',
          jobs: [1, 2].map((n) => ({ jobType: 'task', code: n })),
        },
      ],
      workOrders: Array.from({ length: 40 }, (_, i) => ({
        workOrderCode: `WO-M${i}`,
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'NORTH',
      })),
    });
    for (let i = 0; i < 40; i++)
      await ok(linkWo('P-MANY', `WO-M${i}`, { insertionMode: 'index', position: 1 }));
    expect(await jobs('P-MANY')).toEqual([
      'task:1',
      ...Array.from({ length: 40 }, (_, i) => `workOrder:WO-M${39 - i}`),
      'task:2',
    ]);
  });

  it('a move last (one statement) lands after every job, whichever path placed it, and once the last keys are used up', async () => {
    await ok(linkWo('P-NORTH', 'WO-N1'));
    // Joining past the end (the full path), then first, then last again (one statement).
    await ok(linkWo('P-NORTH', 'WO-N3', { insertionMode: 'index', position: 1e9 }));
    await ok(linkWo('P-NORTH', 'WO-N2', { insertionMode: 'first' }));
    await ok(linkWo('P-NORTH', 'wo-n1', { insertionMode: 'LAST' }));
    const others = FIXTURE_JOBS.filter((j) => !j.startsWith('workOrder'));
    expect(await jobs('P-NORTH')).toEqual([
      'workOrder:WO-N2',
      ...others,
      'workOrder:WO-N3',
      'workOrder:WO-N1',
    ]);
    // The last keys used up (past 2^52): the full path places last as before them.
    const { rows } = await sql<{
      v: string;
    }>`SELECT last_value::text AS v FROM project_job_last_keys`.execute(t.db);
    await sql`SELECT setval('project_job_last_keys', ${String((2 ** 52 - 2 ** 40) / 4096)}::bigint)`.execute(
      t.db,
    );
    try {
      await ok(linkWo('P-NORTH', 'WO-N3'));
      await ok(linkWo('P-NORTH', 'WO-N2', { insertionMode: 'index', position: 1e9 }));
      expect(await jobs('P-NORTH')).toEqual([
        ...others,
        'workOrder:WO-N1',
        'workOrder:WO-N3',
        'workOrder:WO-N2',
      ]);
    } finally {
      await sql`SELECT setval('project_job_last_keys', ${rows[0].v}::bigint)`.execute(t.db);
    }
  });

  it('a move last inside its project is refused as the full path refuses it', async () => {
    await refused(await linkWo('P-DONE', 'WO-N8'), [C.projectStatusConflict]);
    // A work order moved since to an office above the project.
    await sql`UPDATE work_orders SET office_id = (SELECT id FROM offices WHERE code = 'ROOT')
      WHERE code = 'WO-N2'`.execute(t.db);
    try {
      await refused(await linkWo('P-NORTH', 'WO-N2'), [C.projectOfficeConflict]);
    } finally {
      await sql`UPDATE work_orders SET office_id = (SELECT id FROM offices WHERE code = 'NORTH')
        WHERE code = 'WO-N2'`.execute(t.db);
    }
    // The caller of NORTH-A does not see P-NORTH's work order WO-N1.
    await refused(await linkWo('P-NORTH', 'WO-N1', undefined, 'northA'), [C.jobCodeUnknown]);
    expect(await jobs('P-NORTH')).toEqual(FIXTURE_JOBS);
  });

  it('a work order deleted leaves no gap and takes its dependencies with it', async () => {
    await runImport(t.db, {
      workOrders: [
        { workOrderCode: 'WO-GONE', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'NORTH' },
      ],
    });
    await ok(
      linkWo('P-NORTH', 'WO-GONE', {
        insertionMode: 'index',
        position: 1,
        block: [{ jobType: 'task', code: '2' }],
      }),
    );
    expect((await jobs('P-NORTH'))[1]).toBe('workOrder:WO-GONE');
    await sql`DELETE FROM work_orders WHERE code = 'WO-GONE'`.execute(t.db);
    expect(await jobs('P-NORTH')).toEqual(FIXTURE_JOBS);
    expect(await deps('P-NORTH')).toEqual(['task:1>workOrder:WO-N1']);
    await ok(linkWo('P-NORTH', 'WO-N3', { insertionMode: 'index', position: 1 }));
    expect((await jobs('P-NORTH'))[1]).toBe('workOrder:WO-N3');
  });
});

describe('project link: the rules of the spec, one code each', () => {
  beforeEach(reset);

  it('project.code.unknown: unknown, of a sibling office, or longer than 50 characters', async () => {
    await refused(await linkWo('NOPE', 'WO-N3'), [C.projectUnknown]);
    await refused(await linkWo('P-SOUTH', 'WO-N3', undefined, 'north'), [C.projectUnknown]);
    await refused(await linkWo('P'.repeat(51), 'WO-N3'), [C.projectUnknown]);
  });

  it('project.code.mandatory: the code missing in the path', async () => {
    await refused(await linkWo('', 'WO-N3'), [C.projectCodeMandatory]);
  });

  it('project.job.code.unknown: unknown, or outside the caller tree (rule 4)', async () => {
    await refused(await linkWo('P-NORTH', 'WO-NOPE'), [C.jobCodeUnknown]);
    await refused(await linkWo('P-NORTH', 'WO-S1', undefined, 'north'), [C.jobCodeUnknown]);
    await refused(await linkWo('P-NORTH', 'has space'), [C.jobCodeUnknown]);
  });

  it('project.job.code.mandatory, job.type.mandatory, job.type.unknown', async () => {
    await refused(await link('P-NORTH', { type: 'workOrder' }), [C.jobCodeMandatory]);
    await refused(await link('P-NORTH', { type: 'workOrder', code: '' }), [C.jobCodeMandatory]);
    await refused(await link('P-NORTH', { code: 'WO-N3' }), [C.jobTypeMandatory]);
    await refused(await link('P-NORTH', { type: 'task', code: 'WO-N3' }), [C.jobTypeUnknown]);
  });

  it('workorder.code.ambiguous: several live work orders carry the code (rule 5)', async () => {
    await refused(await linkWo('P-NORTH', 'WO-DUP', undefined, 'north'), [C.workOrderAmbiguous]);
    // From NORTH-A one of the two only is visible: not ambiguous there.
    await ok(linkWo('P-A', 'WO-DUP', undefined, 'northA'));
  });

  it('a code carried by a validated and a live work order links the live one (rule 5)', async () => {
    await ok(linkWo('P-NORTH', 'WO-TWIN'));
    const twin = (await project('P-NORTH')).jobs.find((j: { code: string }) => j.code === 'WO-TWIN');
    expect(twin.uuid).toBe('1c8d4063-2e3f-4071-8b8c-9d0e1f2a3b4c');
  });

  it('insertion.relativePosition.unknown: not a job of the project, or the work order itself', async () => {
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'after', relativePosition: 'PH-9' }), [
      C.relativePositionUnknown,
    ]);
    // A task and a work order may share a number: the job type tells them apart.
    await refused(
      await linkWo('P-NORTH', 'WO-N3', {
        insertionMode: 'after',
        relativePosition: '1',
        jobType: 'workOrder',
      }),
      [C.relativePositionUnknown],
    );
    await refused(
      await linkWo('P-NORTH', 'WO-N1', {
        insertionMode: 'before',
        relativePosition: 'WO-N1',
        jobType: 'workOrder',
      }),
      [C.relativePositionUnknown],
    );
  });

  it('insertion.relativePosition.mandatory, insertionMode.unknown, position.mandatory, position.invalid, jobType.unknown', async () => {
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'before' }), [
      C.relativePositionMandatory,
    ]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'middle' }), [C.insertionModeUnknown]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'index' }), [C.positionMandatory]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'index', position: -1 }), [
      C.positionInvalid,
    ]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { insertionMode: 'index', position: 1.5 }), [
      C.positionInvalid,
    ]);
    await refused(
      await linkWo('P-NORTH', 'WO-N3', {
        insertionMode: 'after',
        relativePosition: '1',
        jobType: 'milestone',
      }),
      [C.insertionJobTypeUnknown],
    );
    // position is ignored by the other modes.
    await ok(linkWo('P-NORTH', 'WO-N3', { insertionMode: 'first', position: 5 }));
  });

  it('block and isBlockedBy: code.unknown, code.mandatory, jobType.mandatory, jobType.unknown', async () => {
    const n3 = (insertion: unknown) => linkWo('P-NORTH', 'WO-N3', insertion);
    await refused(await n3({ block: [{ jobType: 'task', code: '99' }] }), [C.blockCodeUnknown]);
    await refused(await n3({ isBlockedBy: [{ jobType: 'workOrder', code: 'WO-N4' }] }), [
      C.isBlockedByCodeUnknown,
    ]);
    await refused(await n3({ block: [{ jobType: 'task' }] }), [C.blockCodeMandatory]);
    await refused(await n3({ isBlockedBy: [{ jobType: 'task', code: '' }] }), [C.isBlockedByCodeMandatory]);
    await refused(await n3({ block: [{ code: '1' }] }), [C.blockJobTypeMandatory]);
    await refused(await n3({ isBlockedBy: [{ code: '1' }] }), [C.isBlockedByJobTypeMandatory]);
    await refused(await n3({ block: [{ jobType: 'phase', code: 'PH-1' }] }), [C.blockJobTypeUnknown]);
    await refused(await n3({ isBlockedBy: [{ jobType: 'phase', code: 'PH-1' }] }), [
      C.isBlockedByJobTypeUnknown,
    ]);
  });

  it('invalid.json and field.unknown', async () => {
    const raw = (text: string) => t.api(linkProject, { params: { projectCode: 'P-NORTH' }, raw: text });
    await refused(await raw('{"type": "workOrder", "code": "WO-N3"'), [C.invalidJson]);
    await refused(await raw('{"type": "workOrder", "code": "WO-N3", "code": "WO-N4"}'), [C.invalidJson]);
    await refused(await raw('[]'), [C.invalidJson]);
    await refused(await link('P-NORTH', { type: 'workOrder', code: { x: 1 } }), [C.invalidJson]);
    await refused(await linkWo('P-NORTH', 'WO-N3', []), [C.invalidJson]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { block: {} }), [C.invalidJson]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { position: '3', insertionMode: 'index' }), [
      C.invalidJson,
    ]);
    await refused(await link('P-NORTH', { type: 'workOrder', code: 'WO-N3', note: 1 }), [C.fieldUnknown]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { where: 1 }), [C.fieldUnknown]);
    await refused(await linkWo('P-NORTH', 'WO-N3', { block: [{ jobType: 'task', code: '1', lag: 2 }] }), [
      C.fieldUnknown,
    ]);
  });

  it('project.office.conflict: the project must be at or above the work order office (rule 1)', async () => {
    await refused(await linkWo('P-NORTH', 'WO-R1'), [C.projectOfficeConflict]);
    await refused(await linkWo('P-A', 'WO-N3'), [C.projectOfficeConflict]);
    // Above is fine: a NORTH-A work order into a NORTH project.
    await ok(linkWo('P-NORTH', 'WO-A3'));
  });

  it('project.status.conflict and workorder.currentproject.status.conflict: completed projects', async () => {
    await refused(await linkWo('P-DONE', 'WO-N3'), [C.projectStatusConflict]);
    // WO-N8 sits in the completed P-DONE: it cannot leave it, nor move inside it.
    await refused(await linkWo('P-NORTH', 'WO-N8'), [C.currentProjectStatusConflict]);
    await refused(await linkWo('P-DONE', 'WO-N8', { insertionMode: 'first' }), [C.projectStatusConflict]);
  });

  it('a project of a parent office can be linked to but receives no dependency (rules 1, 4, 6)', async () => {
    await ok(linkWo('P-ROOT', 'WO-N3', undefined, 'north'));
    expect(await jobs('P-ROOT')).toEqual(['task:1', 'workOrder:WO-N3']);
    await refused(await linkWo('P-ROOT', 'WO-N4', { block: [{ jobType: 'task', code: '1' }] }, 'north'), [
      C.blockOfficeConflict,
    ]);
    // From ROOT itself, the same dependency is fine; and ROOT's project is unknown to SOUTH's sibling reads.
    await ok(linkWo('P-ROOT', 'WO-N4', { block: [{ jobType: 'task', code: '1' }] }, 'root'));
    expect((await t.api(getProject, { params: { projectCode: 'P-ROOT' }, as: 'north' })).statusCode).toBe(
      404,
    );
  });

  it('block.dependency.cycle: anywhere in the graph, the path in the message', async () => {
    // task 1 -> WO-N1 exists; WO-N1 -> task 2 -> WO-N2, then WO-N2 -> task 1 closes a cycle.
    await ok(linkWo('P-NORTH', 'WO-N1', { block: [{ jobType: 'task', code: '2' }] }));
    await ok(linkWo('P-NORTH', 'WO-N2', { isBlockedBy: [{ jobType: 'task', code: '2' }] }));
    const [err] = await refused(
      await linkWo('P-NORTH', 'WO-N2', { block: [{ jobType: 'task', code: '1' }] }),
      [C.dependencyCycle],
    );
    expect(parseCyclePath(err.message)).toEqual([
      { jobType: 'workOrder', code: 'WO-N2' },
      { jobType: 'task', code: '1' },
      { jobType: 'workOrder', code: 'WO-N1' },
      { jobType: 'task', code: '2' },
      { jobType: 'workOrder', code: 'WO-N2' },
    ]);
    // A work order new to the project closes one through the existing task 1 -> WO-N1.
    const [fresh] = await refused(
      linkWo('P-NORTH', 'WO-N5', {
        block: [{ jobType: 'task', code: '1' }],
        isBlockedBy: [{ jobType: 'workOrder', code: 'WO-N1' }],
      }),
      [C.dependencyCycle],
    );
    expect(parseCyclePath(fresh.message)?.map((j) => j.code)).toEqual(['WO-N5', '1', 'WO-N1', 'WO-N5']);
    // A work order that blocks itself, and one blocking and blocked by the same job.
    const [self] = await refused(
      await linkWo('P-NORTH', 'WO-N3', { block: [{ jobType: 'workOrder', code: 'WO-N3' }] }),
      [C.dependencyCycle],
    );
    expect(parseCyclePath(self.message)).toEqual([
      { jobType: 'workOrder', code: 'WO-N3' },
      { jobType: 'workOrder', code: 'WO-N3' },
    ]);
    const [two] = await refused(
      await linkWo('P-NORTH', 'WO-N3', {
        block: [{ jobType: 'task', code: '3' }],
        isBlockedBy: [{ jobType: 'task', code: '3' }],
      }),
      [C.dependencyCycle],
    );
    expect(parseCyclePath(two.message)?.map((j) => j.code)).toEqual(['WO-N3', '3', 'WO-N3']);
  });

  it('block.dependency.overlap: a blocked job planned to start before the blocking one ends', async () => {
    // task 1 is planned to end 2030-01-07 10:00; WO-SCHED1 is scheduled 2030-01-07 09:00-11:00.
    const [err] = await refused(
      await linkWo('P-NORTH', 'WO-SCHED1', { isBlockedBy: [{ jobType: 'task', code: '1' }] }),
      [C.dependencyOverlap],
    );
    expect(parseOverlaps(err.message)).toEqual([
      {
        blocking: { jobType: 'task', code: '1', plannedEnd: '2030-01-07T10:00:00Z' },
        blocked: { jobType: 'workOrder', code: 'WO-SCHED1', plannedStart: '2030-01-07T09:00:00Z' },
      },
    ]);
    // WO-SCHED2 starts 2030-01-08: after task 1; unknown dates never overlap (task 2 has none).
    await ok(
      linkWo('P-NORTH', 'WO-SCHED2', {
        isBlockedBy: [{ jobType: 'task', code: '1' }],
        block: [{ jobType: 'task', code: '2' }],
      }),
    );
    // task 3 starts 2030-02-01: WO-SCHED1 may block it.
    await ok(linkWo('P-NORTH', 'WO-SCHED1', { block: [{ jobType: 'task', code: '3' }] }));
  });

  it('rule.violated: the work order sits in a project outside the caller tree and parent offices', async () => {
    const mover = (officeCode: string) => ({
      workOrders: [{ workOrderCode: 'WO-MOVER', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode }],
    });
    await runImport(t.db, mover('NORTH-A'));
    await ok(linkWo('P-A', 'WO-MOVER'));
    // WO-MOVER moves to SOUTH (import): P-A (NORTH-A) is in neither SOUTH's tree nor its parents.
    await runImport(t.db, mover('SOUTH'));
    await refused(await linkWo('P-SOUTH', 'WO-MOVER', undefined, 'south'), [C.ruleViolated]);
    // ROOT sees both: it may move it.
    await ok(linkWo('P-SOUTH', 'WO-MOVER', undefined, 'root'));
    expect(await jobs('P-SOUTH')).toEqual(['workOrder:WO-MOVER']);
  });

  it('needs the projectManagement:write scope', async () => {
    const res = await linkWo('P-NORTH', 'WO-N3', undefined, 'readonly');
    expect(res.statusCode).toBe(403);
    expect(codesOf(res)).toEqual(['access.forbiden']);
  });
});

describe('project link: several errors, nothing written', () => {
  beforeEach(reset);

  it('lists every error found, in the order of the spec table', async () => {
    const res = await link('P-DONE', {
      code: 'WO-R1',
      note: true,
      insertion: {
        insertionMode: 'after',
        jobType: 'workOrder',
        block: [{ jobType: 'phase', code: 'PH-1' }, { code: '1' }, { jobType: 'task' }],
        isBlockedBy: [{ jobType: 'task', code: '42' }],
      },
    });
    expect(codesOf(res)).toEqual([
      C.jobTypeMandatory,
      C.relativePositionMandatory,
      C.isBlockedByCodeUnknown,
      C.blockCodeMandatory,
      C.blockJobTypeMandatory,
      C.blockJobTypeUnknown,
      C.fieldUnknown,
      C.projectOfficeConflict,
      C.projectStatusConflict,
    ]);
    const order = codesOf(res).map((c: string) => PROJECT_LINK_CODES.indexOf(c));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const second = await link('NOPE', {
      type: 'x',
      code: 'WO-NOPE',
      insertion: { insertionMode: 'index', position: -2 },
    });
    expect(codesOf(second)).toEqual([
      C.projectUnknown,
      C.jobCodeUnknown,
      C.jobTypeUnknown,
      C.positionInvalid,
    ]);
  });

  it('a refused call changes nothing: neither the order, nor the dependencies, nor the project left', async () => {
    await ok(linkWo('P-A', 'WO-A1'));
    const before = { north: await project('P-NORTH'), a: await project('P-A') };
    // A valid move that also closes a cycle: refused whole.
    await refused(
      await linkWo('P-NORTH', 'WO-N1', {
        insertionMode: 'first',
        block: [
          { jobType: 'task', code: '2' },
          { jobType: 'task', code: '1' },
        ],
      }),
      [C.dependencyCycle],
    );
    // Taking WO-A1 from P-A, refused for an overlap-free unknown dependency.
    await refused(await linkWo('P-NORTH', 'WO-A1', { block: [{ jobType: 'task', code: '77' }] }), [
      C.blockCodeUnknown,
    ]);
    expect(await project('P-NORTH')).toEqual(before.north);
    expect(await project('P-A')).toEqual(before.a);
  });
});

describe('sending a linked work order again; removing a dependency', () => {
  beforeEach(reset);

  it('keeps the earlier dependencies and adds the new ones; a move alone keeps them', async () => {
    await ok(linkWo('P-NORTH', 'WO-N1', { block: [{ jobType: 'task', code: '2' }] }));
    await ok(linkWo('P-NORTH', 'WO-N1', { insertionMode: 'index', position: 5 }));
    await ok(
      linkWo('P-NORTH', 'WO-N1', {
        block: [
          { jobType: 'task', code: '2' },
          { jobType: 'task', code: '3' },
        ],
      }),
    );
    expect((await deps('P-NORTH')).sort()).toEqual([
      'task:1>workOrder:WO-N1',
      'workOrder:WO-N1>task:2',
      'workOrder:WO-N1>task:3',
    ]);
    expect(await jobs('P-NORTH')).toHaveLength(FIXTURE_JOBS.length);
  });

  const remove = (projectCode: string, body: unknown, as: TestClient = 'root') =>
    t.api(deleteProjectDependency, { params: { projectCode }, body, as });
  const dep = (blocking: [string, string], blocked: [string, string]) => ({
    blocking: { jobType: blocking[0], code: blocking[1] },
    blocked: { jobType: blocked[0], code: blocked[1] },
  });

  it('DELETE .../dependencies removes one; each refusal has its code', async () => {
    await ok(remove('P-NORTH', dep(['task', '1'], ['workorder', 'wo-n1'])));
    expect(await deps('P-NORTH')).toEqual([]);
    await refused(await remove('P-NORTH', dep(['task', '1'], ['workOrder', 'WO-N1'])), [C.dependencyUnknown]);
    await refused(await remove('P-NORTH', dep(['task', '9'], ['workOrder', 'WO-N1'])), [C.dependencyUnknown]);
    await refused(await remove('NOPE', dep(['task', '1'], ['task', '2'])), [C.projectUnknown]);
    await refused(await remove('P-SOUTH', dep(['task', '1'], ['task', '2']), 'north'), [C.projectUnknown]);
    await refused(await remove('P-ROOT', dep(['task', '1'], ['task', '2']), 'north'), [
      C.blockOfficeConflict,
    ]);
    await refused(await remove('P-DONE', dep(['task', '1'], ['task', '2'])), [
      C.projectStatusConflict,
      C.dependencyUnknown,
    ]);
    await refused(await remove('P-NORTH', { blocking: { jobType: 'task', code: '1' } }), [C.invalidJson]);
    await refused(await remove('P-NORTH', { ...dep(['task', '1'], ['task', '2']), why: 1 }), [
      C.fieldUnknown,
    ]);
    await refused(await remove('P-NORTH', dep(['phase', 'PH-1'], ['task', '2'])), [C.invalidJson]);
    await refused(await remove('', dep(['task', '1'], ['task', '2'])), [C.projectCodeMandatory]);
  });
});
