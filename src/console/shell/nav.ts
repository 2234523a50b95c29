/**
 * What the shell shows of the features (features/index.ts): the navigation groups (merged
 * by id, in their order), the resources, and the breadcrumbs of a path. Nothing here
 * names a feature.
 */
import { permitted } from '../app/permissions.ts';
import { FEATURES } from '../features/index.ts';

type AnyFeature = (typeof FEATURES)[number];
export type NavGroupOf = AnyFeature['nav'][number];
export type NavEntry = NavGroupOf['items'][number];
export type Resource = AnyFeature['resources'][number];
/** A path of a navigation entry (a route without params). */
export type NavPath = NavEntry['to'];

export interface NavSection {
  id: string;
  label: string;
  items: NavEntry[];
}

function buildNav(): NavSection[] {
  const groups = new Map<string, NavSection & { order: number }>();
  for (const feature of FEATURES) {
    for (const g of feature.nav as readonly NavGroupOf[]) {
      const group = groups.get(g.id) ?? { id: g.id, label: g.label, order: g.order, items: [] };
      group.items.push(...g.items);
      groups.set(g.id, group);
    }
  }
  return [...groups.values()].sort((a, b) => a.order - b.order);
}

export const NAV: readonly NavSection[] = buildNav();

/** The navigation these rights may use: entries a role cannot use are not offered. */
export function navFor(scopes: readonly string[] | null | undefined): NavSection[] {
  return NAV.map((g) => ({ ...g, items: permitted(g.items, scopes) })).filter((g) => g.items.length > 0);
}
export const RESOURCES: readonly Resource[] = FEATURES.flatMap((f) => f.resources as readonly Resource[]);
export const resourceByKey = (key: string | undefined): Resource | undefined =>
  RESOURCES.find((r) => r.key === key);

/** A crumb's link, typed by the route tree: a list, or a record's page. */
export type CrumbLink =
  | { to: NavPath }
  | { to: NonNullable<Resource['paths']['detail']>; params: { code: string } };

export interface Crumb {
  label: string;
  /** i18n key (true) or a value shown as it is (a record code). */
  translate: boolean;
  /** Where the crumb links; none for the current page and the sections. */
  link?: CrumbLink;
}

/**
 * Breadcrumbs of a path: the section of the navigation entry it is under (not linked),
 * the entry (its list), then the rest of the path: a record code (linked to the record's
 * page when a page follows, e.g. edit), `new`, `edit`.
 */
export function crumbsOf(pathname: string): Crumb[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  let best: { section: NavSection; item: NavEntry } | undefined;
  for (const section of NAV)
    for (const item of section.items)
      if (
        (path === item.to || path.startsWith(`${item.to}/`)) &&
        item.to.length > (best?.item.to.length ?? 0)
      )
        best = { section, item };
  if (!best) {
    return path === '/'
      ? []
      : path
          .split('/')
          .filter(Boolean)
          .map((s) => ({ label: safeDecode(s), translate: false }));
  }
  const { section, item } = best;
  const detail = resourceByKey(item.resource)?.paths.detail;
  // `/workorders/uuid/<uuid>` names its record by uuid: the record is the uuid.
  const rest = path
    .slice(item.to.length)
    .split('/')
    .filter((seg) => seg && seg !== 'uuid');
  const crumbs: Crumb[] = [
    { label: section.label, translate: true },
    { label: item.label, translate: true, link: rest.length ? { to: item.to } : undefined },
  ];
  rest.forEach((seg, i) => {
    const last = i === rest.length - 1;
    if (seg === 'new') crumbs.push({ label: 'common:crumbs.new', translate: true });
    else if (seg === 'edit') crumbs.push({ label: 'common:crumbs.edit', translate: true });
    else {
      const code = safeDecode(seg);
      crumbs.push({
        label: code,
        translate: false,
        link: !last && i === 0 && detail ? { to: detail, params: { code } } : undefined,
      });
    }
  });
  return crumbs;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The page title's parts, most specific first (the shell adds the console's name): a record
 * "ACME · Customer", its form "Edit · ACME · Customer", a new one "New · Customer", a list
 * "Customers", a page of the navigation by its name. `recordName` replaces the path's code
 * when the page gave one (useRecordName).
 */
export function titleOf(pathname: string, recordName?: string | null): Crumb[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return [{ label: 'common:nav.home', translate: true }];
  const crumbs = crumbsOf(path);
  const entry = NAV.flatMap((s) => s.items).find((i) => crumbs[1]?.label === i.label);
  if (!entry) return [{ label: 'common:notFound.title', translate: true }];
  const rest = path
    .slice(entry.to.length)
    .split('/')
    .filter((s) => s && s !== 'uuid');
  if (rest.length === 0) return [{ label: entry.label, translate: true }];
  const kind = resourceByKey(entry.resource)?.label.one;
  const what: Crumb[] = kind ? [{ label: kind, translate: true }] : [];
  if (rest[0] === 'new') return [{ label: 'common:crumbs.new', translate: true }, ...what];
  const record: Crumb = { label: recordName || safeDecode(rest[0]), translate: false };
  return rest.includes('edit')
    ? [{ label: 'common:crumbs.edit', translate: true }, record, ...what]
    : [record, ...what];
}
