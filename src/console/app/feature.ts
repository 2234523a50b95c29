/**
 * What a console feature declares, as data (one folder `src/console/features/<id>/`, one
 * line in `features/index.ts`): its strings, its navigation, its resources (the records
 * it lists: segment, code field, list endpoint and search, pages) and its routes. The
 * shell builds the navigation, the breadcrumbs, the Home cards, the command palette and
 * the route tree from these declarations; nothing in the shell names a feature.
 *
 * Everything here is light on purpose (no contract schema, no form code): the manifests
 * load with the shell, the pages with their route.
 */
import type { Icon } from '@tabler/icons-react';
import type { AnyRoute } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { Language } from '../i18n/language.ts';
import type { RootRoute } from '../routes/root.tsx';
import type { Scope } from './permissions.ts';

export type Bundle = { readonly [key: string]: unknown };
export type BundleLoader = () => Promise<{ default: Bundle }>;

/**
 * The feature's i18n namespace (named after the feature id): `shell` holds the few
 * strings the shell shows before any page of the feature loads (navigation, Home cards,
 * palette groups), in every language; `load` the whole namespace, loaded with the
 * feature's first page (and again in the other language when the user switches).
 */
export interface FeatureI18n {
  shell: Record<Language, Bundle>;
  load: Record<Language, BundleLoader>;
}

/**
 * A kind of record the feature lists. `paths` are route templates of the feature's paths
 * module; a record's page is `paths.detail` with `{ code }`.
 */
export interface ResourceManifest<TPath extends string = string, TDetail extends string = string> {
  /**
   * Unique across features, e.g. `customer`: a kind the console's search finds and Home
   * counts (contract/console.ts RECORD_KINDS; a unit test checks both lists agree).
   */
  key: string;
  /** i18n keys (with the namespace): the plural is the list's title, the palette group. */
  label: { one: string; many: string };
  /** The list endpoint (a path of the contract's endpoint table; a unit test checks it). */
  list: { path: string };
  paths: { list: TPath; new?: TPath; detail?: TDetail };
  /**
   * The scope of the endpoint that creates and edits the records (a resource with a `new`
   * page has one; registry.test.ts holds it to the contract's row): without it, Home offers
   * no "new" link.
   */
  write?: Scope;
  /**
   * A palette query matching `pattern` (a RegExp source, e.g. a uuid) is offered as one hit
   * opening `path` with `{ code: <the query> }`; `label` is its i18n key (a shell string).
   */
  direct?: { pattern: string; path: TDetail; label: string };
  /** Home card: the i18n key of its one-line description. */
  home?: { description: string };
}

export interface NavItem<TPath extends string = string> {
  /** i18n key with its namespace, e.g. `referentials:nav.customers`. */
  label: string;
  to: TPath;
  icon: Icon;
  /** The resource behind the entry (its count and "new" link on Home), by key. */
  resource?: string;
  /** Home card: the i18n key of its one-line description, for an entry without a resource. */
  description?: string;
  /**
   * A page only this scope makes useful (webhooks: the user's own subscriptions, which a
   * role without `webhooks:write` can neither make nor hold): hidden from the navigation,
   * Home and the palette without it (app/permissions.ts).
   */
  requires?: Scope;
}

/** A group of the navigation, one per business domain of the spec; features may share a group id. */
export interface NavGroup<TPath extends string = string> {
  id: string;
  /** i18n key with its namespace. */
  label: string;
  /** Position among the groups (ascending). */
  order: number;
  items: readonly NavItem<TPath>[];
}

/** What a tab's panel gets from the record page that shows it. */
export interface RecordTabProps {
  /** The record's code (as the page names it). */
  code: string;
  /** Tell the page its record may have changed (it reads it again). */
  onChanged?: () => void;
}

/**
 * A tab a feature adds to a resource's record page, possibly another feature's (planning's
 * panel on a work order, a record's history): the page shows its own tabs, then these, in
 * the order of the features. The panel loads with the tab, with the feature's strings.
 */
export interface RecordTabManifest {
  /** The resource whose record page shows the tab (a resource key, e.g. `workOrder`). */
  resource: string;
  /** Its `?tab=` value, unique on that page. */
  key: string;
  /** i18n key of its title (a shell string: shown before the panel loads). */
  label: string;
  load: () => Promise<ComponentType<RecordTabProps>>;
}

/** A contributed tab as a record page receives it: with the namespaces its panel needs. */
export interface RecordTab extends RecordTabManifest {
  namespaces: readonly string[];
}

/** What the shell gives a feature's routes: the tabs other features add to its record pages. */
export interface RouteContext {
  recordTabs(resource: string): readonly RecordTab[];
}

export interface Feature<TPath extends string, TDetail extends string, TRoutes extends readonly AnyRoute[]> {
  /** Also the i18n namespace of the feature. */
  id: string;
  i18n: FeatureI18n;
  /** Other namespaces the feature's pages use (e.g. `customFields`), loaded with them. */
  uses?: readonly SharedNamespace[];
  nav: readonly NavGroup<TPath>[];
  resources: readonly ResourceManifest<TPath, TDetail>[];
  /** Tabs the feature adds to record pages (its own or another feature's resources). */
  tabs?: readonly RecordTabManifest[];
  /** The feature's routes under the shell's root route; pages are lazily loaded. */
  routes: (root: RootRoute, context: RouteContext) => TRoutes;
}

/** Namespaces of shared components (`components/<name>/i18n`), loaded by the features that use them. */
export type SharedNamespace = 'customFields';

/** Declares a feature, keeping its paths and routes' literal types (typed links). */
export function defineFeature<
  const TPath extends string,
  const TDetail extends string,
  const TRoutes extends readonly AnyRoute[],
>(feature: Feature<TPath, TDetail, TRoutes>): Feature<TPath, TDetail, TRoutes> {
  return feature;
}
