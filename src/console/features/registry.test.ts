/**
 * The feature registry and what the shell builds from it: every declaration points at
 * something real (contract rows, routes, strings in both languages), the navigation,
 * the breadcrumbs and the route tree come from the declarations alone.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_KIND_NAMES } from '../../contract/console.ts';
import { ALL_SCOPES, endpoints, getHome, getMe, requiredScope, searchRecords } from '../../contract/index.ts';
import { HOME_PATH, ME_PATH, SEARCH_PATH } from '../app/apiPaths.ts';
import common from '../i18n/en.ts';
import commonFr from '../i18n/fr.ts';
import { LANGUAGES } from '../i18n/language.ts';
import { rootRoute } from '../routes/root.tsx';
import { crumbsOf, NAV, RESOURCES, titleOf } from '../shell/nav.ts';
import { FEATURES } from './index.ts';

type Bundle = { readonly [k: string]: unknown };

/** `a.b.c` keys of a bundle (plural suffixes folded: `x_one`, `x_other` -> `x`). */
function keysOf(b: Bundle, prefix = ''): string[] {
  return Object.entries(b).flatMap(([k, v]) =>
    v && typeof v === 'object'
      ? keysOf(v as Bundle, `${prefix}${k}.`)
      : [`${prefix}${k.replace(/_(one|other|zero|few|many)$/, '')}`],
  );
}
const has = (b: Bundle, key: string) => keysOf(b).includes(key);

const listRows = endpoints.filter((e) => e.method === 'GET');

describe('the feature registry', () => {
  it('ids and resource keys are unique', () => {
    const ids = FEATURES.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = RESOURCES.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every resource's list is a GET row of the contract", () => {
    for (const r of RESOURCES)
      expect(
        listRows.some((e) => e.path === r.list.path),
        `${r.key}: ${r.list.path}`,
      ).toBe(true);
  });

  it("a resource's `write` is the scope of the contract's write rows under its list, and a page with `new` has one", () => {
    for (const r of RESOURCES) {
      const writes = endpoints.filter(
        (e) => e.method !== 'GET' && (e.path === r.list.path || e.path.startsWith(`${r.list.path}/`)),
      );
      if ('new' in r.paths) expect('write' in r && r.write, `${r.key} has a new page`).toBeTruthy();
      if (!('write' in r) || !r.write) continue;
      expect(writes.length, `${r.key} write rows`).toBeGreaterThan(0);
      for (const e of writes) expect(requiredScope(e), `${r.key} ${e.id}`).toBe(r.write);
    }
    for (const g of NAV)
      for (const item of g.items)
        if ('requires' in item && item.requires) expect(ALL_SCOPES).toContain(item.requires);
  });

  it('the resources are the kinds the search finds and Home counts, each declared once', () => {
    expect(RESOURCES.map((r) => r.key).sort()).toEqual([...RECORD_KIND_NAMES].sort());
  });

  it("the shell's own paths are the contract rows' paths", () => {
    expect(ME_PATH).toBe(getMe.path);
    expect(HOME_PATH).toBe(getHome.path);
    expect(SEARCH_PATH).toBe(searchRecords.path);
  });

  it('every navigation entry and resource page is a route of its feature', () => {
    for (const f of FEATURES) {
      const paths = new Set(
        f.routes(rootRoute, { recordTabs: () => [] }).map((r) => ('path' in r.options ? r.options.path : '')),
      );
      for (const g of f.nav) for (const item of g.items) expect(paths, `${f.id} nav`).toContain(item.to);
      for (const r of f.resources) {
        for (const p of Object.values(r.paths)) expect(paths, `${f.id} ${r.key}`).toContain(p);
        if (r.direct) {
          expect(paths, `${f.id} ${r.key} direct`).toContain(r.direct.path);
          expect(() => new RegExp(r.direct?.pattern ?? ''), `${r.key} direct pattern`).not.toThrow();
        }
      }
    }
  });

  it('navigation entries name existing resources', () => {
    for (const g of NAV)
      for (const item of g.items)
        if (item.resource) expect(RESOURCES.map((r) => r.key)).toContain(item.resource);
  });

  it('the shell strings of the navigation, Home and palette exist in every language', () => {
    for (const f of FEATURES) {
      const own = (key: string) => key.startsWith(`${f.id}:`);
      const keys = [
        ...f.nav.flatMap((g) => [
          g.label,
          ...g.items.flatMap((i) => [
            i.label,
            ...('description' in i && i.description ? [i.description] : []),
          ]),
        ]),
        ...f.resources.flatMap((r) => [
          r.label.one,
          r.label.many,
          ...(r.home ? [r.home.description] : []),
          ...(r.direct ? [r.direct.label] : []),
        ]),
      ];
      for (const key of keys) {
        expect(own(key), `${key} is in the feature's namespace`).toBe(true);
        for (const lng of LANGUAGES)
          expect(has(f.i18n.shell[lng], key.slice(f.id.length + 1)), `${lng} ${key}`).toBe(true);
      }
    }
  });

  it('each namespace has the same keys in English and French', async () => {
    expect(keysOf(commonFr).sort()).toEqual(keysOf(common).sort());
    for (const f of FEATURES) {
      expect(keysOf(f.i18n.shell.fr).sort(), `${f.id} shell`).toEqual(keysOf(f.i18n.shell.en).sort());
      const [en, fr] = await Promise.all([f.i18n.load.en(), f.i18n.load.fr()]);
      expect(keysOf(fr.default).sort(), f.id).toEqual(keysOf(en.default).sort());
      // The shell strings are not repeated (a loaded bundle would override what the shell showed).
      for (const key of keysOf(f.i18n.shell.en))
        expect(has(en.default, key), `${f.id}: ${key} twice`).toBe(false);
    }
    const [en, fr] = await Promise.all([
      import('../components/customFields/i18n/en.ts'),
      import('../components/customFields/i18n/fr.ts'),
    ]);
    expect(keysOf(fr.default).sort()).toEqual(keysOf(en.default).sort());
  });
});

describe('the navigation and breadcrumbs built from the registry', () => {
  it('groups the features by domain, in order', () => {
    expect(NAV.map((g) => g.id)).toEqual([
      'referentials',
      'businessOrganization',
      'fieldService',
      'rostering',
      'projectManagement',
      'webhooks',
    ]);
    expect(NAV[0].items.map((i) => i.to)).toEqual([
      '/referentials/customers',
      '/referentials/sites',
      '/referentials/assets',
    ]);
  });

  it('breadcrumbs: section, list, record, action', () => {
    expect(crumbsOf('/referentials/customers/ACME/edit')).toEqual([
      { label: 'referentials:nav.section', translate: true },
      { label: 'referentials:nav.customers', translate: true, link: { to: '/referentials/customers' } },
      {
        label: 'ACME',
        translate: false,
        link: { to: '/referentials/customers/$code', params: { code: 'ACME' } },
      },
      { label: 'common:crumbs.edit', translate: true },
    ]);
    expect(crumbsOf('/catalog/items/new').map((c) => c.label)).toEqual([
      'catalog:nav.section',
      'catalog:nav.items',
      'common:crumbs.new',
    ]);
    // The current page is not linked.
    expect(crumbsOf('/staff/skills')[1].link).toBeUndefined();
    expect(crumbsOf('/')).toEqual([]);
    expect(crumbsOf('/no/such%20page').map((c) => c.label)).toEqual(['no', 'such page']);
  });

  it('page titles: the record and the page, most specific first', () => {
    const labels = (path: string, name?: string) => titleOf(path, name).map((p) => p.label);
    expect(labels('/')).toEqual(['common:nav.home']);
    expect(labels('/referentials/customers')).toEqual(['referentials:nav.customers']);
    expect(labels('/referentials/customers/ACME')).toEqual(['ACME', 'referentials:entity.customer']);
    expect(labels('/referentials/customers/ACME/edit')).toEqual([
      'common:crumbs.edit',
      'ACME',
      'referentials:entity.customer',
    ]);
    expect(labels('/catalog/items/new')).toEqual(['common:crumbs.new', 'catalog:entity.item']);
    expect(labels('/workorders/uuid/0f0e', 'WO-1')).toEqual(['WO-1', 'workorders:entity.workOrder']);
    expect(labels('/rostering/planner')).toEqual(['planning:nav.planner']);
    expect(labels('/no/such/page')).toEqual(['common:notFound.title']);
  });
});
