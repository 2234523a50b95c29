/**
 * The grid of a work order's activities and used items: TanStack Table for the columns
 * (sizing by dragging or the keyboard, ordering, both kept per user in localStorage),
 * TanStack Virtual for the rows (only those in view are in the DOM; fixed row height, so
 * scrolling never measures), over the rows of an infinite query: the next page is asked for
 * when the reader comes within a page of the end of what is loaded. Sticky header.
 *
 * The table holds the columns only (sizes, order, headers: its row model is not used): the
 * rows in view are drawn from the loaded rows directly, so 20,000 loaded rows cost what 40 do.
 * Scrolling renders only what it changes (issue 27, 7): the header and each row are memoized,
 * so a step of the scroll mounts the rows coming into view and nothing else; the virtualizer
 * does not force a synchronous render per scroll event (flushSync), and the frame's alignment
 * reads no style once aligned.
 */
import { Box, Button, Center, Group, Loader, Menu, Table, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconLayoutColumns } from '@tabler/icons-react';
import {
  type ColumnDef,
  type ColumnOrderState,
  type ColumnSizingState,
  columnOrderingFeature,
  columnResizingFeature,
  columnSizingFeature,
  type RowData,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type Dispatch,
  type KeyboardEvent,
  memo,
  type ReactNode,
  type SetStateAction,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import './grid.css';
import {
  FIT_SAMPLE,
  fitColumnSizes,
  layoutKey,
  MAX_COLUMN,
  MIN_COLUMN,
  moveColumn,
  readLayout,
  shouldFetchNext,
} from '../model.ts';

export interface GridColumn<T> {
  id: string;
  header: string;
  size: number;
  align?: 'right';
  render: (row: T) => ReactNode;
  /** The text a cell shows, when `render` gives an element (its width is fitted to it). */
  text?: (row: T) => string;
  /** The cell's text is in the monospace font (codes). */
  mono?: boolean;
}

/** The plain text of a cell, for fitting its column: `text`, else what `render` gives when a string or number. */
function cellText<T>(c: GridColumn<T>): ((row: T) => string) | undefined {
  if (c.text) return c.text;
  return (row) => {
    const v = c.render(row);
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
}

let canvas: CanvasRenderingContext2D | null | undefined;
/** A text's width in the grid's fonts (14 px: the table's `sm`), measured on a canvas. */
function measureText(text: string, kind: 'header' | 'cell' | 'mono'): number {
  canvas ??= document.createElement('canvas').getContext('2d');
  if (!canvas) return text.length * 8;
  const root = getComputedStyle(document.documentElement);
  const family =
    kind === 'mono'
      ? root.getPropertyValue('--mantine-font-family-monospace') || 'monospace'
      : getComputedStyle(document.body).fontFamily;
  canvas.font = `${kind === 'header' ? 700 : 400} 14px ${family}`;
  return canvas.measureText(text).width;
}

/** What the header reads of TanStack Table's header cells. */
interface GridHeaderCell {
  id: string;
  column: { id: string; getIsResizing: () => boolean; resetSize: () => void };
  getSize: () => number;
  getResizeHandler: () => (event: unknown) => void;
}
type SetLayout = Dispatch<SetStateAction<ReturnType<typeof readLayout>>>;

export const ROW_HEIGHT = 34;
/** Fetch the next page when the last row in view is within this many rows of the end. */
export const FETCH_AHEAD = 150;

/** A stable empty array: a new one at each render would make the table update its state again. */
const NO_ROWS: never[] = [];

const features = tableFeatures({ columnSizingFeature, columnResizingFeature, columnOrderingFeature });

const apply = <S,>(u: Updater<S>, old: S): S => (typeof u === 'function' ? (u as (o: S) => S)(old) : u);

function useColumnLayout(gridId: string, ids: readonly string[]) {
  const { me } = useAuth();
  const key = layoutKey(me?.login ?? 'anonymous', gridId);
  const [layout, setLayout] = useState(() => readLayout(localStorage.getItem(key), ids));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => localStorage.setItem(key, JSON.stringify(layout)), 200);
    return () => clearTimeout(timer);
  }, [key, layout]);
  return [layout, setLayout] as const;
}

/**
 * Once the reader scrolls the grid, the page brings it under its header: the rows take the
 * window (15 or more at 1280x800) instead of what the record's header leaves them.
 * Measured only after the page itself scrolled or resized: a measure on each scroll event
 * of the grid forced a layout of the whole page (the grid's longest task, issue 27, 7).
 */
function useFrameAlignment() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const aligned = useRef(false);
  useEffect(() => {
    const moved = (e: Event) => {
      if (e.target !== scrollRef.current) aligned.current = false;
    };
    document.addEventListener('scroll', moved, { capture: true, passive: true });
    window.addEventListener('resize', moved, { passive: true });
    return () => {
      document.removeEventListener('scroll', moved, { capture: true });
      window.removeEventListener('resize', moved);
    };
  }, []);
  const alignFrame = () => {
    const frame = frameRef.current;
    const grid = scrollRef.current;
    if (aligned.current || !frame || !grid || grid.scrollTop === 0) return;
    const offset = Number.parseFloat(getComputedStyle(frame).scrollMarginTop) || 0;
    if (frame.getBoundingClientRect().top > offset + 1) frame.scrollIntoView({ block: 'start' });
    else aligned.current = true;
  };
  return { scrollRef, frameRef, alignFrame };
}

/** The rows in view (virtualized) and the padding around them; the next page asked for near the end. */
function useRowsInView<T>(
  rows: readonly T[],
  scrollRef: React.RefObject<HTMLDivElement | null>,
  more: { hasMore: boolean; fetchingMore: boolean; fetchNext: () => void },
) {
  const { hasMore, fetchingMore, fetchNext } = more;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // A render per scroll event forced synchronously makes long tasks on a fast scroll.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (hasMore && !fetchingMore && shouldFetchNext(lastIndex, rows.length, FETCH_AHEAD)) fetchNext();
  }, [lastIndex, rows.length, hasMore, fetchingMore, fetchNext]);

  const visible = useMemo(() => rows.slice(firstIndex, lastIndex + 1), [rows, firstIndex, lastIndex]);
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return { visible, firstIndex, paddingTop, paddingBottom };
}

/**
 * The columns as TanStack Table holds them: each as wide as its content (its header's
 * longest word, its longest cell of the first rows: no identifier cut, issue 27, 5), a
 * width or an order the reader set kept theirs.
 */
function useGridColumns<T extends RowData>(
  columns: readonly GridColumn<T>[],
  rows: readonly T[],
  [layout, setLayout]: ReturnType<typeof useColumnLayout>,
) {
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const sampled = Math.min(rows.length, FIT_SAMPLE);
  const fitted = useMemo(
    () =>
      fitColumnSizes(
        columns.map((c) => ({ ...c, text: cellText(c) })),
        rows.slice(0, sampled),
        measureText,
      ),
    [columns, sampled, rows[0]],
  );
  const defs = useMemo<ColumnDef<typeof features, T>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        size: fitted[c.id] ?? c.size,
        minSize: MIN_COLUMN,
        maxSize: MAX_COLUMN,
        accessorFn: () => null,
      })),
    [columns, fitted],
  );
  const table = useTable({
    features,
    columns: defs,
    // The table owns the columns (sizes, order, headers); the rows are drawn from `visible`.
    data: NO_ROWS as T[],
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    state: { columnSizing: layout.sizing, columnOrder: layout.order },
    onColumnSizingChange: (u: Updater<ColumnSizingState>) =>
      setLayout((l) => ({ ...l, sizing: apply(u, l.sizing) })),
    onColumnOrderChange: (u: Updater<ColumnOrderState>) =>
      setLayout((l) => ({ ...l, order: apply(u, l.order) })),
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  // The columns in their order, the same array while the order holds (the rows are memoized on it).
  const orderKey = headers.map((h) => h.column.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the order, not the headers' objects
  const ordered = useMemo(
    () => headers.flatMap((h) => byId.get(h.column.id) ?? []) as GridColumn<T>[],
    [orderKey, byId],
  );
  return { byId, headers, width: table.getTotalSize(), orderKey, ordered };
}

export function DataGrid<T extends RowData>({
  gridId,
  label,
  rows,
  columns,
  rowKey,
  hasMore,
  fetchingMore,
  fetchNext,
  toolbar,
}: {
  gridId: string;
  label: string;
  rows: readonly T[];
  columns: readonly GridColumn<T>[];
  rowKey: (row: T) => string;
  hasMore: boolean;
  fetchingMore: boolean;
  fetchNext: () => void;
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation('workorders');
  const ids = useMemo(() => columns.map((c) => c.id), [columns]);
  const columnLayout = useColumnLayout(gridId, ids);
  const setLayout = columnLayout[1];
  const { scrollRef, frameRef, alignFrame } = useFrameAlignment();
  const { visible, firstIndex, paddingTop, paddingBottom } = useRowsInView(rows, scrollRef, {
    hasMore,
    fetchingMore,
    fetchNext,
  });
  const { byId, headers, width, orderKey, ordered } = useGridColumns(columns, rows, columnLayout);
  return (
    <Box ref={frameRef} className="wo-grid-frame">
      <Group justify="space-between" gap="sm" mb={6} wrap="wrap">
        <Group gap="sm">{toolbar}</Group>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconLayoutColumns size={14} />}
          onClick={() => setLayout({ sizing: {}, order: [...ids] })}
          data-testid={`${gridId}-reset-columns`}
        >
          {t('grid.resetColumns')}
        </Button>
      </Group>
      <Box
        ref={scrollRef}
        onScroll={alignFrame}
        className="wo-grid-scroll"
        style={{
          overflow: 'auto',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 8,
          contain: 'strict',
        }}
        tabIndex={0}
        role="region"
        aria-label={label}
        data-testid={`${gridId}-scroll`}
      >
        <Table
          striped
          stickyHeader
          // 8 px a side, not Mantine's 10: at the default widths a header fits its column with
          // a few pixels to spare, in French too ("Unité", "Montant").
          horizontalSpacing={8}
          style={{ tableLayout: 'fixed', width, minWidth: '100%' }}
          aria-rowcount={rows.length + 1}
          data-testid={`${gridId}-grid`}
          data-rows={rows.length}
        >
          <colgroup>
            {headers.map((h) => (
              <col key={h.id} style={{ width: h.getSize() }} />
            ))}
          </colgroup>
          <GridHeader
            headers={headers}
            byId={byId}
            setLayout={setLayout}
            version={`${orderKey}|${headers.map((h) => `${h.getSize()}${h.column.getIsResizing() ? '*' : ''}`).join(',')}`}
          />
          <Table.Tbody>
            {paddingTop > 0 && (
              <tr aria-hidden>
                <td colSpan={headers.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
              </tr>
            )}
            {visible.map((row, i) => (
              <GridRow key={rowKey(row)} row={row} index={firstIndex + i} cols={ordered} gridId={gridId} />
            ))}
            {paddingBottom > 0 && (
              <tr aria-hidden>
                <td colSpan={headers.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
              </tr>
            )}
          </Table.Tbody>
        </Table>
        <GridEnd gridId={gridId} count={rows.length} hasMore={hasMore} fetchingMore={fetchingMore} />
      </Box>
    </Box>
  );
}

/** Below the rows: a loader while the next page comes, or the count once every row is loaded. */
function GridEnd({
  gridId,
  count,
  hasMore,
  fetchingMore,
}: {
  gridId: string;
  count: number;
  hasMore: boolean;
  fetchingMore: boolean;
}) {
  const { t, i18n } = useTranslation('workorders');
  const fmt = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  return (
    <>
      {fetchingMore && (
        <Center py="xs">
          <Loader size="sm" aria-label={t('grid.loadingMore')} />
        </Center>
      )}
      {!hasMore && count > 0 && (
        <Text size="xs" c="dimmed" ta="center" py="xs" data-testid={`${gridId}-end`}>
          {t('grid.end', { count, n: fmt.format(count) })}
        </Text>
      )}
    </>
  );
}

/** A row of the grid: rendered when it comes into view, not again while the grid scrolls. */
const GridRow = memo(function GridRow<T>({
  row,
  index,
  cols,
  gridId,
}: {
  row: T;
  index: number;
  cols: readonly GridColumn<T>[];
  gridId: string;
}) {
  // Plain elements styled by grid.css: Mantine's Table.Tr and Table.Td cost a style
  // resolution per cell, 300 of them per screen of rows.
  return (
    <tr
      className="wo-tr"
      aria-rowindex={index + 2}
      data-odd={index % 2 === 0 || undefined}
      data-testid={`${gridId}-row`}
      data-index={index}
    >
      {cols.map((col) => (
        <td key={col.id} className="wo-td" data-align={col.align}>
          {col.render(row)}
        </td>
      ))}
    </tr>
  );
}) as <T>(props: { row: T; index: number; cols: readonly GridColumn<T>[]; gridId: string }) => ReactNode;

/**
 * The grid's header: each label opens its column's menu, each edge resizes its column.
 * Memoized: the grid scrolling does not render it again (`version` changes with the order,
 * the widths and a resize in progress).
 */
const GridHeader = memo(
  function GridHeader<T>({
    headers,
    byId,
    setLayout,
  }: {
    headers: readonly GridHeaderCell[];
    byId: ReadonlyMap<string, GridColumn<T>>;
    setLayout: SetLayout;
    version: string;
  }) {
    const { t } = useTranslation('workorders');
    const setWidth = (id: string, w: number) =>
      setLayout((l) => ({
        ...l,
        sizing: { ...l.sizing, [id]: Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, Math.round(w))) },
      }));
    const onResizeKey = (id: string, size: number) => (e: KeyboardEvent) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      setWidth(id, size + (e.key === 'ArrowRight' ? 10 : -10));
    };

    return (
      <Table.Thead style={{ zIndex: 2 }}>
        <Table.Tr aria-rowindex={1}>
          {headers.map((h, i) => {
            const col = byId.get(h.column.id);
            const size = h.getSize();
            return (
              <Table.Th
                key={h.id}
                className="wo-th"
                style={{ textAlign: col?.align }}
                data-column={h.column.id}
              >
                {/* The header itself opens the column's menu (click, Enter or Space): no button
                  drawn over the label, whatever its alignment. */}
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    {/* biome-ignore lint/a11y/useSemanticElements: the header cell's label is the menu's trigger; a <button> inside <th> would change what `th > span` reads */}
                    <span
                      className="wo-th-label"
                      title={col?.header}
                      role="button"
                      tabIndex={0}
                      aria-label={t('grid.columnMenu', { column: col?.header })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          e.currentTarget.click();
                        }
                      }}
                    >
                      {col?.header}
                    </span>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      leftSection={<IconArrowLeft size={14} />}
                      disabled={i === 0}
                      onClick={() =>
                        setLayout((l) => ({ ...l, order: moveColumn(l.order, h.column.id, -1) }))
                      }
                    >
                      {t('grid.moveLeft')}
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconArrowRight size={14} />}
                      disabled={i === headers.length - 1}
                      onClick={() => setLayout((l) => ({ ...l, order: moveColumn(l.order, h.column.id, 1) }))}
                    >
                      {t('grid.moveRight')}
                    </Menu.Item>
                    <Menu.Item onClick={() => h.column.resetSize()}>{t('grid.resetWidth')}</Menu.Item>
                  </Menu.Dropdown>
                </Menu>
                {/* biome-ignore lint/a11y/useSemanticElements: a column resizer is an ARIA separator widget (no element for it) */}
                <div
                  role="separator"
                  aria-orientation="vertical"
                  aria-label={t('grid.resize', { column: col?.header })}
                  aria-valuenow={size}
                  aria-valuemin={MIN_COLUMN}
                  aria-valuemax={MAX_COLUMN}
                  tabIndex={0}
                  onMouseDown={h.getResizeHandler()}
                  onTouchStart={h.getResizeHandler()}
                  onDoubleClick={() => h.column.resetSize()}
                  onKeyDown={onResizeKey(h.column.id, size)}
                  className="wo-resizer"
                  data-resizing={h.column.getIsResizing() || undefined}
                />
              </Table.Th>
            );
          })}
        </Table.Tr>
      </Table.Thead>
    );
  },
  (a, b) => a.version === b.version && a.byId === b.byId,
) as <T>(props: {
  headers: readonly GridHeaderCell[];
  byId: ReadonlyMap<string, GridColumn<T>>;
  setLayout: SetLayout;
  version: string;
}) => ReactNode;
