import { Box, Center, Loader, Table, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type MouseEvent, memo, type ReactNode, useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { widestText } from './textWidth.ts';

export interface Column<T> {
  key: string;
  header: ReactNode;
  width?: number | string;
  render: (row: T) => ReactNode;
  /**
   * An identifier's text (a code): the column is at least as wide as the widest of the rows
   * loaded, so it is never cut (issue 27, 5). `fitMono`: shown in the monospace font;
   * `fitWeight`: its font weight.
   */
  fit?: (row: T) => string;
  fitMono?: boolean;
  fitWeight?: number;
}

/** Mantine's cell padding (10 px a side) and a pixel of rounding. */
const CELL_PADDING = 22;

/** The columns' widths: as given, widened to their identifiers' text where they have one. */
function useFittedWidths<T>(columns: readonly Column<T>[], rows: readonly T[]) {
  return useMemo(
    () =>
      columns.map((c) => {
        if (!c.fit || rows.length === 0) return c.width;
        const text = c.fit;
        const content = Math.ceil(
          widestText(
            rows.map((r) => text(r)),
            { mono: c.fitMono, weight: c.fitWeight },
          ) + CELL_PADDING,
        );
        return typeof c.width === 'number' || c.width === undefined
          ? Math.max(c.width ?? 0, content)
          : c.width;
      }),
    [columns, rows],
  );
}

interface VirtualTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  onOpen?: (row: T) => void;
  /** data-testid of each row (default `list-row`). */
  rowTestId?: string;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  label: string;
}

const ROW_HEIGHT = 41;

/** A cell whose text is cut by the column width shows it whole on hover. */
function titleIfTruncated(e: MouseEvent<HTMLTableCellElement>) {
  const cell = e.currentTarget;
  if (cell.scrollWidth > cell.clientWidth + 1) cell.title = cell.textContent ?? '';
  else cell.removeAttribute('title');
}

interface VirtualRowProps<T> {
  row: T;
  index: number;
  columns: readonly Column<T>[];
  open: ((row: T) => void) | undefined;
  testId: string;
  measure: (element: HTMLTableRowElement | null) => void;
}

function VirtualRowOf<T>({ row, index, columns, open, testId, measure }: VirtualRowProps<T>) {
  return (
    <Table.Tr
      data-index={index}
      ref={measure}
      style={{ cursor: open ? 'pointer' : undefined, height: ROW_HEIGHT }}
      onClick={(e) => {
        // Links and buttons inside the row handle their own clicks.
        if ((e.target as HTMLElement).closest('a, button')) return;
        open?.(row);
      }}
      data-testid={testId}
    >
      {columns.map((c) => (
        <Table.Td
          key={c.key}
          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          onMouseEnter={titleIfTruncated}
        >
          {c.render(row)}
        </Table.Td>
      ))}
    </Table.Tr>
  );
}

/**
 * A row, drawn again only when its data, place or columns change: a scroll draws the rows
 * it brings in, not every row of the window (the board's 2,000 technicians: issue 28's
 * 50 ms task budget). memo() loses the type parameter, given back here.
 */
const VirtualRow = memo(VirtualRowOf) as typeof VirtualRowOf;

/**
 * A table whose rows are virtualized (only the visible ones are in the DOM) and which asks
 * for the next page when the user scrolls near the end (keyset pages of a list). It takes
 * the height its rows need, up to what its container leaves it (ListFrame: the rest of the
 * page), and scrolls inside. A cell cut by its column shows its whole text on hover.
 */
export function VirtualTable<T>(props: VirtualTableProps<T>) {
  const {
    rows,
    columns,
    rowKey,
    onOpen,
    rowTestId = 'list-row',
    hasMore,
    loadingMore,
    loadMore,
    label,
  } = props;
  const { t } = useTranslation('common');
  const widths = useFittedWidths(columns, rows);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // As the work orders' grid (DataGrid.tsx): a render forced inside each scroll event adds
    // up to long tasks on a fast scroll; React draws it with the next frame instead.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  useEffect(() => {
    if (!last) {
      if (rows.length === 0 && hasMore && !loadingMore) loadMore();
      return;
    }
    if (last.index >= rows.length - 10 && hasMore && !loadingMore) loadMore();
  }, [last, rows.length, hasMore, loadingMore, loadMore]);

  // One callback for every row whatever the caller passes (often a new arrow each render),
  // so that a row already shown is not rendered again.
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  const open = useCallback((row: T) => onOpenRef.current?.(row), []);

  const paddingTop = items.length > 0 ? items[0].start : 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - last.end : 0;

  return (
    <Box
      ref={scrollRef}
      style={{
        flex: '0 1 auto',
        minHeight: 160,
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 8,
      }}
      tabIndex={0}
      role="region"
      aria-label={label}
      data-testid="list-scroll"
    >
      <Table
        striped
        highlightOnHover
        stickyHeader
        style={{ tableLayout: 'fixed' }}
        aria-rowcount={rows.length}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => (
              <Table.Th key={c.key} style={{ width: widths[i] }}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {paddingTop > 0 && (
            <tr aria-hidden>
              <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index];
            return (
              <VirtualRow
                key={rowKey(row)}
                row={row}
                index={item.index}
                columns={columns}
                open={onOpen ? open : undefined}
                testId={rowTestId}
                measure={virtualizer.measureElement}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden>
              <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
      {loadingMore && (
        <Center py="sm">
          <Loader size="sm" aria-label={t('table.loadingMore')} />
        </Center>
      )}
      {!hasMore && rows.length > 0 && (
        <Text size="xs" c="dimmed" ta="center" py="xs">
          {t('table.end', { count: rows.length })}
        </Text>
      )}
    </Box>
  );
}
