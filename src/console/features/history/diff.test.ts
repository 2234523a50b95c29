import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { diffRows, fieldLabel, fieldText } from './diff.ts';
import en from './i18n/en.ts';
import fr from './i18n/fr.ts';

describe('history diff', () => {
  it('keeps a plain field as it is', () => {
    expect(diffRows([{ name: 'name', before: 'Acme', after: 'Acme Ltd' }])).toEqual([
      { name: 'name', before: 'Acme', after: 'Acme Ltd' },
    ]);
  });

  it('opens objects and coded lists down to the values that differ', () => {
    const rows = diffRows([
      { name: 'address', before: { city: 'Lyon', zip: '69001' }, after: { city: 'Paris', zip: '69001' } },
      {
        name: 'customFields',
        before: [
          { code: 'COLOR', value: 'red' },
          { code: 'SIZE', value: 2 },
        ],
        after: [
          { code: 'COLOR', value: 'blue' },
          { code: 'SIZE', value: 2 },
          { code: 'NEW', value: true },
        ],
      },
    ]);
    expect(rows).toEqual([
      { name: 'address.city', before: 'Lyon', after: 'Paris' },
      { name: 'customFields.COLOR', before: 'red', after: 'blue' },
      { name: 'customFields.NEW', before: null, after: true },
    ]);
  });

  it('takes the one value of a coded entry whatever its name, and leaves out fields empty on both sides', () => {
    expect(
      diffRows([
        { name: 'customFields', before: [], after: [{ code: 'NOTE', textValue: 'Call first' }] },
        { name: 'address', before: null, after: null },
        { name: 'city', before: null, after: 'Lille' },
        { name: 'customFields.TIER', before: { dropDownValue: 'GOLD' }, after: { dropDownValue: 'SILVER' } },
      ]),
    ).toEqual([
      { name: 'customFields.NOTE', before: null, after: 'Call first' },
      { name: 'city', before: null, after: 'Lille' },
      { name: 'customFields.TIER', before: 'GOLD', after: 'SILVER' },
    ]);
  });

  it('shows a created object field by field, and a list of values whole', () => {
    expect(diffRows([{ name: 'schedule', before: null, after: { technician: 'T1', start: 'x' } }])).toEqual([
      { name: 'schedule.technician', before: null, after: 'T1' },
      { name: 'schedule.start', before: null, after: 'x' },
    ]);
    expect(diffRows([{ name: 'flags', before: ['A'], after: ['A', 'B'] }])).toEqual([
      { name: 'flags', before: ['A'], after: ['A', 'B'] },
    ]);
  });

  it('names custom fields and work order parts', () => {
    expect(fieldLabel('customFields.COLOR')).toEqual({
      key: 'field.customFields',
      values: { code: 'COLOR' },
    });
    expect(fieldLabel('usedItems.SCREW')).toEqual({ key: 'field.usedItems', values: { code: 'SCREW' } });
    expect(fieldLabel('customFields.A.B')).toEqual({ key: 'field.customFields', values: { code: 'A.B' } });
  });
});

type Bundle = { readonly [k: string]: unknown };
const keysOf = (b: Bundle, prefix = ''): string[] =>
  Object.entries(b).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keysOf(v as Bundle, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { history: en }, fr: { history: fr } },
  lng: 'en',
  ns: ['history'],
  defaultNS: 'history',
  interpolation: { escapeValue: false },
});
const read = (name: string, lng = 'en') =>
  fieldText(fieldLabel(name), (key, values) => i18n.getFixedT(lng, 'history')(key, values));

describe('field labels', () => {
  it('gives a known name its label', () => {
    expect(fieldLabel('scheduledStart')).toEqual({ key: 'fields.scheduledStart', values: {} });
    expect(read('scheduledStart')).toBe('Scheduled start');
    expect(read('scheduledStart', 'fr')).toBe('Début planifié');
    expect(read('technicianCode', 'fr')).toBe('Technicien');
  });

  it('shows an unknown name as the API names it, in every language', () => {
    expect(fieldLabel('someNewField')).toEqual({ key: 'field.plain', values: { name: 'someNewField' } });
    expect(read('someNewField')).toBe('someNewField');
    expect(read('someNewField', 'fr')).toBe('someNewField');
    expect(read('mystery.city')).toBe('mystery.city');
  });

  it('names a nested field after what it belongs to', () => {
    expect(read('contact.name')).toBe('Contact › Name');
    expect(read('headers.X-Api-Key')).toBe('Custom headers › X-Api-Key');
    expect(read('dependencies.blocking', 'fr')).toBe('Dépendances › Élément bloquant');
    expect(read('activities.A.1.startTime')).toBe('Activity A.1 › Start');
    // A created part as entries before migration 106 logged it: its keys as columns.
    expect(read('usedItems.U1.unit_price')).toBe('Used item U1 › Unit price');
    expect(read('activities.A1')).toBe('Activity A1');
    expect(read('jobs.task.12.plannedEnd', 'fr')).toBe('Tâche 12 › Fin prévue');
    expect(read('jobs.phase.P.1.name')).toBe('Phase P.1 › Name');
  });

  it('has the same keys in English and French', () => {
    expect(Object.keys(fr.fields).sort()).toEqual(Object.keys(en.fields).sort());
    expect(keysOf(fr).sort()).toEqual(keysOf(en).sort());
  });
});

/**
 * The names the change log's trigger (server/domains/changes/migrations) gives the fields of
 * the tables it logs, read from the migrations: the camelCase columns (CREATE TABLE, then
 * ALTER TABLE ADD/DROP/RENAME COLUMN, in migration order) less the columns it leaves out
 * (`change_row`), and the names its last `record_change` writes by hand.
 */
function triggerFieldNames(sqlFiles: readonly string[]) {
  const sql = sqlFiles.map((f) => f.replace(/--[^\n]*/g, '')).join('\n');
  // As change_field_name: `_` dropped, each later part capitalized.
  const camel = (col: string) =>
    col
      .split('_')
      .map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1).toLowerCase()))
      .join('');
  const logged = new Set(
    [...sql.matchAll(/FOREACH t SLICE 1 IN ARRAY ARRAY\[([\s\S]*?)\]\] LOOP/g)].flatMap((m) =>
      [...m[1].matchAll(/\['(\w+)', '\w+'/g)].map((t) => t[1]),
    ),
  );
  const excluded = [...sql.matchAll(/FUNCTION change_row\(r jsonb\)[\s\S]*?r - ARRAY\[([^\]]*)\]/g)]
    .at(-1)?.[1]
    .match(/\w+/g);
  const trigger = sql.slice(sql.lastIndexOf('FUNCTION record_change()'));
  const body = trigger.slice(0, trigger.indexOf('END $$'));

  const columns = new Map<string, string[]>();
  const statements =
    /CREATE TABLE (?:IF NOT EXISTS )?(\w+) \(([\s\S]*?)\n\);|ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(\w+)\s([^;]*);/g;
  const NOT_COLUMN = /^(CONSTRAINT|CHECK|PRIMARY|UNIQUE|EXCLUDE|FOREIGN|DEFAULT|NOT|IDENTITY|EXPRESSION)$/i;
  for (const [, created, defs, altered, clauses] of sql.matchAll(statements)) {
    if (created) {
      if (columns.has(created)) continue; // IF NOT EXISTS
      let depth = 0;
      let part = '';
      const parts: string[] = [];
      for (const c of defs) {
        depth += c === '(' ? 1 : c === ')' ? -1 : 0;
        if (c === ',' && depth === 0) {
          parts.push(part);
          part = '';
        } else part += c;
      }
      parts.push(part);
      const names = parts.map((p) => p.trim().split(/\s+/)[0]).filter((n) => n && !NOT_COLUMN.test(n));
      columns.set(created, names);
      continue;
    }
    const cols = columns.get(altered);
    if (!cols) continue;
    for (const [, verb, name, to] of clauses.matchAll(
      /\b(ADD|DROP|RENAME)\s+(?:COLUMN\s+)?(?:IF (?:NOT )?EXISTS\s+)?(\w+)(?:\s+TO\s+(\w+))?/gi,
    )) {
      if (NOT_COLUMN.test(name)) continue;
      const at = cols.indexOf(name);
      if (verb.toUpperCase() === 'ADD') cols.push(name);
      else if (at >= 0 && verb.toUpperCase() === 'DROP') cols.splice(at, 1);
      else if (at >= 0 && to) cols[at] = to;
    }
  }
  return {
    logged,
    excluded,
    found: new Set(columns.keys()),
    fromColumns: (table: string) =>
      (columns.get(table) ?? []).filter((c) => !excluded?.includes(c)).map(camel),
    // `officeCode`, `dependencies`; the links `project`, `serviceOrder`; a dependency's
    // `blocking` and `blocked` (`dependencies.blocking` once opened).
    byHand: new Set(
      [
        ...body.matchAll(/'name', '(\w+)'/g),
        ...body.matchAll(/SELECT '(\w+)', to_jsonb/g),
        ...body.matchAll(/'(\w+)', [on] -> '\w+_job_id'/g),
      ].map((m) => m[1]),
    ),
  };
}

const migrationFiles = () => {
  const server = join(import.meta.dirname, '../../../server');
  const dirs = [
    join(server, 'db/migrations'),
    ...readdirSync(join(server, 'domains')).map((d) => join(server, 'domains', d, 'migrations')),
  ];
  return dirs
    .flatMap((dir) => {
      try {
        return readdirSync(dir)
          .filter((f) => /^\d{3}_.*\.sql$/.test(f))
          .map((f) => ({ f, dir }));
      } catch {
        return []; // a domain without migrations
      }
    })
    .sort((a, b) => a.f.localeCompare(b.f))
    .map(({ f, dir }) => readFileSync(join(dir, f), 'utf8'));
};

/** Logged tables whose columns the trigger never names: a dependency is logged by hand. */
const NAMED_BY_HAND = ['project_dependencies'];

const emitted = (files: readonly string[]) => {
  const t = triggerFieldNames(files);
  return [
    ...new Set([
      ...[...t.logged].filter((x) => !NAMED_BY_HAND.includes(x)).flatMap(t.fromColumns),
      ...t.byHand,
    ]),
  ];
};

describe('every field the change log can name', () => {
  const files = migrationFiles();
  const t = triggerFieldNames(files);

  it('is read from the migrations', () => {
    expect([...t.logged].sort()).toEqual(
      [
        'activities',
        'assets',
        'customers',
        'items',
        'project_dependencies',
        'project_jobs',
        'projects',
        'service_order_work_orders',
        'service_orders',
        'sites',
        'skills',
        'used_items',
        'webhook_subscriptions',
        'work_orders',
      ].sort(),
    );
    for (const table of t.logged) expect(t.found, table).toContain(table);
    expect(t.excluded).toContain('tenant_id');
    expect([...t.byHand].sort()).toEqual([
      'blocked',
      'blocking',
      'dependencies',
      'officeCode',
      'project',
      'serviceOrder',
    ]);
    expect(t.fromColumns('work_orders')).toEqual(
      expect.arrayContaining(['uuid', 'scheduledStart', 'crewCode']),
    );
    expect(t.fromColumns('customers')).not.toContain('tenantId');
  });

  it('has a label in the fields table', () => {
    const names = emitted(files);
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((n) => !Object.hasOwn(en.fields, n))).toEqual([]);
  });

  it('would miss a label for a new column', () => {
    const added = [
      ...files,
      'ALTER TABLE customers\n  ADD COLUMN loyalty_tier text,\n  DROP COLUMN country;',
    ];
    const names = emitted(added);
    expect(names).toContain('loyaltyTier');
    expect(names.filter((n) => !Object.hasOwn(en.fields, n))).toEqual(['loyaltyTier']);
  });
});
