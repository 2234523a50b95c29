import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listCharacteristics,
  listSkills,
  putSkill as putSkillEndpoint,
  StaffCodes,
} from '../../../contract/staff.ts';
import { asTenant } from '../../db/tenant.ts';
import { codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { staffImporters } from './importers.ts';
import { writeSkill } from './service.ts';

const UNLIMITED = {
  high: { perMinute: 1e9, perHour: 1e9 },
  standard: { perMinute: 1e9, perHour: 1e9 },
  low: { perMinute: 1e9, perHour: 1e9 },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
});
afterAll(() => t?.close());
/** Statements of ROOT's tenant, as a request of ROOT makes them (db/tenant.ts). */
const inRoot = <T>(fn: () => Promise<T>) => asTenant(t.tenants.ROOT, fn);

const skillRow = (code: string) =>
  t.db.selectFrom('skills').selectAll().where('code', '=', code).executeTakeFirst();

describe('PUT /staff/v1/skills/code:{skillCode}', () => {
  it('creates (201), then updates (204), code uppercased', async () => {
    let res = await t.api(putSkillEndpoint, { params: { skillCode: 'weld-1' }, body: { name: 'Welding' } });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('');
    res = await t.api(putSkillEndpoint, {
      params: { skillCode: 'WELD-1' },
      body: { name: 'Welding (TIG)', description: 'TIG and MIG' },
    });
    expect(res.statusCode).toBe(204);
    const row = await skillRow('WELD-1');
    expect(row).toMatchObject({ name: 'Welding (TIG)', description: 'TIG and MIG' });
  });

  it('keeps null, empty string and absent description apart (absent stored as null)', async () => {
    for (const [body, expected] of [
      [{ name: 'A', description: '' }, ''],
      [{ name: 'A', description: null }, null],
      [{ name: 'A' }, null],
    ] as const) {
      const res = await t.api(putSkillEndpoint, { params: { skillCode: 'desc' }, body });
      expect([201, 204]).toContain(res.statusCode);
      const list = await t.api(listSkills);
      expect(list.json().data.find((s: { skillCode: string }) => s.skillCode === 'DESC')).toEqual({
        skillCode: 'DESC',
        name: 'A',
        description: expected,
      });
    }
  });

  it.each([
    ['name missing', { description: 'x' }, StaffCodes.skillNameMandatory],
    ['name null', { name: null }, StaffCodes.skillNameMandatory],
    ['name empty', { name: '' }, StaffCodes.skillNameMandatory],
    ['name too long', { name: 'x'.repeat(201) }, StaffCodes.skillNameInvalid],
    [
      'description too long',
      { name: 'x', description: 'x'.repeat(10001) },
      StaffCodes.skillDescriptionInvalid,
    ],
    ['description not a string', { name: 'x', description: 3 }, StaffCodes.skillDescriptionInvalid],
    ['unknown field', { name: 'x', skillCode: 'X' }, StaffCodes.skillFieldUnknown],
  ])('400 on %s, nothing written', async (_label, body, code) => {
    const res = await t.api(putSkillEndpoint, { params: { skillCode: 'refused' }, body });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toContain(code);
    expect(res.json().errorReference).toBeTruthy();
    expect(await skillRow('REFUSED')).toBeUndefined();
  });

  it('400 staff.skill.invalid.json on malformed JSON, duplicate key or non-object', async () => {
    for (const raw of ['{"name":', '{"name":"a","name":"b"}', '[1]', '']) {
      const res = await t.api(putSkillEndpoint, {
        params: { skillCode: 'refused' },
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, raw).toBe(400);
      expect(codesOf(res)).toEqual([StaffCodes.skillInvalidJson]);
    }
    expect(await skillRow('REFUSED')).toBeUndefined();
  });

  it('400 staff.skill.code.mandatory when the code is empty in the path', async () => {
    const res = await t.api(putSkillEndpoint, { params: { skillCode: '' }, body: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([StaffCodes.skillCodeMandatory]);
  });

  it('400 staff.skill.skillcode.invalid when the code is longer than 200', async () => {
    const res = await t.api(putSkillEndpoint, {
      params: { skillCode: 'A'.repeat(201) },
      body: { name: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([StaffCodes.skillCodeInvalid]);
  });

  it('403 access.forbiden without the staff:write scope', async () => {
    const res = await t.api(putSkillEndpoint, {
      params: { skillCode: 'ro' },
      as: 'readonly',
      body: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(codesOf(res)).toEqual(['access.forbiden']);
  });

  it('is instance-wide: every office reads it, only a root office writes it (403 access.forbiden, nothing written)', async () => {
    const before = await skillRow('WELD-1');
    for (const as of ['north', 'northA', 'south'] as const) {
      for (const code of ['weld-1', 'north-new']) {
        const res = await t.api(putSkillEndpoint, {
          params: { skillCode: code },
          as,
          body: { name: 'Hijack' },
        });
        expect(res.statusCode).toBe(403);
        expect(codesOf(res)).toEqual(['access.forbiden']);
      }
      const list = await t.api(listSkills, { as });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((s: { skillCode: string }) => s.skillCode)).toContain('WELD-1');
      expect((await t.api(listCharacteristics, { as })).statusCode).toBe(200);
    }
    expect(await skillRow('WELD-1')).toEqual(before);
    expect(await skillRow('NORTH-NEW')).toBeUndefined();
    expect(
      (await t.api(putSkillEndpoint, { params: { skillCode: 'root-new' }, body: { name: 'x' } })).statusCode,
    ).toBe(201);
    expect(
      (await t.api(putSkillEndpoint, { params: { skillCode: 'root-new' }, body: { name: 'y' } })).statusCode,
    ).toBe(204);
  });

  it('__proto__ or constructor in the body: refused as unknown fields, nothing written', async () => {
    for (const raw of ['{"name":"x","__proto__":{"name":"y"}}', '{"name":"x","constructor":{"a":1}}']) {
      const res = await t.api(putSkillEndpoint, { params: { skillCode: 'proto' }, raw });
      expect(res.statusCode, raw).toBe(400);
      expect(codesOf(res)).toEqual([StaffCodes.skillFieldUnknown]);
    }
    expect(await skillRow('PROTO')).toBeUndefined();
  });
});

describe('GET /staff/v1/skills (keyset pagination)', () => {
  it('1100 skills: pages of 500/500/100 in code order, no duplicate', async () => {
    await t.db.deleteFrom('skills').execute();
    const all = Array.from({ length: 1100 }, (_, i) => `S${String(i).padStart(5, '0')}`);
    // Inserted in a shuffled order: the list must sort.
    const shuffled = [...all].sort(() => Math.random() - 0.5);
    await t.db
      .insertInto('skills')
      .values(
        shuffled.map((code) => ({
          tenant_id: t.tenants.ROOT,
          code,
          name: `Skill ${code}`,
          description: null,
        })),
      )
      .execute();

    const pages = await t.pages<{ skillCode: string }>(listSkills);
    const sizes = pages.map((p) => p.data.length);
    const seen = pages.flatMap((p) => p.data.map((s) => s.skillCode));
    expect(sizes).toEqual([500, 500, 100]);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(1100);
  });

  it('an empty list is one empty page with a null token', async () => {
    const res = await t.api(listCharacteristics);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ continuationToken: null, data: [] });
  });

  it('400 staff.continuationToken.invalid on a tampered, foreign or garbage token', async () => {
    const first = (await t.api(listSkills)).json();
    const token: string = first.continuationToken;
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ e: 'staff.skills.list', p: 'S00000' })).toString('base64url');
    const bad = [
      `${payload}x.${signature}`,
      `${forged}.${signature}`,
      'garbage',
      `${payload}.${signature}.x`,
      `${payload}.`,
    ];
    for (const b of bad) {
      const res = await t.api(listSkills, { query: { continuationToken: b } });
      expect(res.statusCode, b).toBe(400);
      expect(codesOf(res)).toEqual([StaffCodes.continuationTokenInvalid]);
    }
    // A skills token is not a characteristics token.
    const res = await t.api(listCharacteristics, { query: { continuationToken: token } });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([StaffCodes.continuationTokenInvalid]);
  });
});

describe('characteristics (read-only through the API, from the import file)', () => {
  it('has no PUT', async () => {
    // A path the contract does not have: a characteristic's, beside the list's.
    const res = await t.call('PUT', `${listCharacteristics.path}/code:X`, { body: { name: 'x' } });
    expect(res.statusCode).toBe(404);
  });

  it('imports skills and characteristics idempotently and lists them sorted', async () => {
    const [skills, characteristics] = ['skills', 'characteristics'].map(
      (k) => staffImporters.filter((i) => i.key === k)[0],
    );
    expect([skills.order, characteristics.order]).toEqual([200, 210]);
    const rows = characteristics.schema.array().parse([
      { characteristicCode: 'height', name: 'Works at height' },
      { characteristicCode: 'car', name: 'Has a car', description: 'B licence' },
    ]);
    expect(await inRoot(() => t.db.transaction().execute((trx) => characteristics.apply(trx, rows)))).toEqual(
      {
        created: 2,
        updated: 0,
      },
    );
    expect(await inRoot(() => t.db.transaction().execute((trx) => characteristics.apply(trx, rows)))).toEqual(
      {
        created: 0,
        updated: 0,
      },
    );
    const res = await t.api(listCharacteristics);
    expect(res.json()).toEqual({
      continuationToken: null,
      data: [
        { characteristicCode: 'CAR', name: 'Has a car', description: 'B licence' },
        { characteristicCode: 'HEIGHT', name: 'Works at height', description: null },
      ],
    });

    const skillRows = skills.schema.array().parse([{ skillCode: 'imp', name: 'Imported' }]);
    expect(await inRoot(() => skills.apply(t.db, skillRows))).toEqual({ created: 1, updated: 0 });
    expect(await inRoot(() => writeSkill(t.db, { code: 'IMP', name: 'Imported', description: null }))).toBe(
      'unchanged',
    );
    expect(await inRoot(() => writeSkill(t.db, { code: 'imp', name: 'Renamed' }))).toBe('updated');
  });

  it('the import schema refuses an unknown field', () => {
    const [skills] = staffImporters.filter((i) => i.key === 'skills');
    expect(skills.schema.safeParse({ skillCode: 'A', name: 'x', level: 3 }).success).toBe(false);
  });
});

describe('rate ranges (spec: Limits)', () => {
  it('skill PUT, skills list and characteristics list are Standard', () => {
    expect([putSkillEndpoint, listSkills, listCharacteristics].map((e) => e.range)).toEqual([
      'standard',
      'standard',
      'standard',
    ]);
  });
});
