/**
 * A list page as data: what a feature declares for each of its lists (title, search box,
 * columns, where the rows come from, where a row leads, filters, actions), read by
 * ResourceListPage, which owns the rest (header, the search in the URL, loading, error and
 * empty states, keyset pages read as the reader scrolls). A new list is a declaration; a
 * page with more (a board, a record's tabs) adds its parts by the slots below.
 */
import type { QueryKey } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ComponentType, ReactNode } from 'react';
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import type { Column } from '../VirtualTable.tsx';

/** The list's route, as `getRouteApi(path)` gives it: its search params are the list's filters. */
export interface ListRoute<S> {
  useSearch(): S;
}

/** What the columns are built with (strings in the page's language). */
export interface ListContext {
  t: TFunction;
  lang: string;
}

/** What the declared parts (filters, actions, notice) get from the page. */
export interface ListPartProps<S, Row> {
  search: S;
  setSearch: (next: S) => void;
  /** The rows shown (all of them for a list read whole, before the text filter). */
  rows: readonly Row[];
  pending: boolean;
  /** The list's failure, if it failed (a filter the service refused shows on its input). */
  error: unknown;
}

/** Where the rows come from. */
export type ListSource<Row, S> =
  | {
      /** Keyset pages, the next read as the reader nears the end of what is loaded. */
      kind: 'pages';
      /** The query key of the list with these filters (under the feature's keys, so its writes invalidate it). */
      key: (search: S) => QueryKey;
      page: (client: Client, search: S, token: string | undefined, signal: AbortSignal) => Promise<Page<Row>>;
      /** Retry a failed page (default: the console's, 5xx and network only). */
      retry?: (failures: number, error: unknown) => boolean;
    }
  | {
      /** A list without a text filter: every page read at once, filtered here by `q`. */
      kind: 'whole';
      key: QueryKey;
      page: (client: Client, token: string | undefined, signal: AbortSignal) => Promise<Page<Row>>;
      matches: (row: Row, text: string) => boolean;
    };

/** i18n keys (in `ns`) of the page's strings. */
export interface ListText {
  title: string;
  subtitle?: string;
  /** The table's accessible name. */
  label: string;
  loading?: string;
  search?: string;
  searchPlaceholder?: string;
  emptyTitle: string;
  empty: string;
  noMatchTitle: string;
  /** Interpolates `{{q}}`. */
  noMatch: string;
  clear: string;
  /** "Sorted by code", beside the filters. */
  sortedByCode?: string;
  /** "N of M" beside the search box of a list read whole (`count`, `total`). */
  matching?: string;
}

export interface ResourceList<Row, S extends { q?: string }> {
  /** The i18n namespace of `text`. */
  ns: string;
  route: ListRoute<S>;
  text: ListText;
  /** The text filter (`?q=`); none when `text.search` is not given. */
  searchBox?: {
    testId?: string;
    width?: number;
    debounceMs?: number;
    /** The service's refusal of the text, shown on the box. */
    error?: (error: unknown, t: TFunction) => string | undefined;
  };
  columns: (ctx: ListContext) => Column<Row>[];
  rowKey: (row: Row) => string;
  /** data-testid of a row (default `list-row`). */
  rowTestId?: string;
  /** What a click on a row does (a hook: it may navigate or open an editor). */
  useOpen?: () => (row: Row) => void;
  source: ListSource<Row, S>;
  /** Inputs beside the search box (their values live in the URL search too). */
  Filters?: ComponentType<ListPartProps<S, Row>>;
  /** The header's buttons ("New", import, export). */
  Actions?: ComponentType<ListPartProps<S, Row>>;
  /** Between the header and the filters (a note about the list, a usage line). */
  Notice?: ComponentType<ListPartProps<S, Row>>;
  /** The empty state's action when nothing is filtered ("New ..."). */
  EmptyAction?: ComponentType;
  /** Around the whole page: state the parts share (an editor opened by a row and by "New"). */
  Around?: ComponentType<{ rows: readonly Row[]; children: ReactNode }>;
  /** The list's size beside the title (a list read whole). */
  countBadge?: boolean;
  /** Beside the title instead (a usage, "1 of 3"). */
  TitleBadge?: ComponentType<ListPartProps<S, Row>>;
  /** A failure the page says in its own words (a refused filter, an instance without the extension). */
  explain?: (error: unknown, t: TFunction) => ReactNode | undefined;
  /** A search that names one record, offered instead of the list (a uuid typed in the box). */
  shortcut?: (search: S, t: TFunction) => ReactNode | undefined;
}

/** Declares a list, keeping its row and search types. */
export function defineList<Row, S extends { q?: string }>(list: ResourceList<Row, S>): ResourceList<Row, S> {
  return list;
}
