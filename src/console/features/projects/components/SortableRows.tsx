/**
 * An ordered list whose movable rows are dragged to a new place, with the pointer or the
 * keyboard (dnd-kit: Space or Enter on a row's handle picks it up, the arrow keys move it,
 * Space or Enter drops it, Escape puts it back), each step announced to screen readers.
 * Rows that cannot move (phases, tasks, a closed service order) stay places a row can be
 * dropped at. The list tells its owner `onMove(from, to)` (`to`: the place in the result);
 * the owner reorders optimistically and sends the link call. The list scrolls inside its
 * own box; a long one (a project of thousands of jobs) renders only the rows in view
 * (TanStack Virtual), the row being dragged kept rendered.
 */
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MeasuringStrategy,
  type Modifier,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { ActionIcon, Box, Tooltip } from '@mantine/core';
import { IconGripVertical, IconLock } from '@tabler/icons-react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** From this many rows, only the rows in view are rendered. */
export const VIRTUAL_FROM = 150;
const ROW_HEIGHT = 38;

/** Rows move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export interface SortableRowsProps<T> {
  items: readonly T[];
  idOf: (item: T) => string;
  /** What is read out for the item (its code). */
  labelOf: (item: T) => string;
  /** The item has a handle (a work order); others are places only. */
  movable: (item: T) => boolean;
  /** Why a movable item cannot be moved now (shown on its locked handle), or null. */
  lockedReason: (item: T) => string | null;
  onMove: (from: number, to: number) => void;
  /** A move is being sent: the handles wait. */
  busy: boolean;
  renderRow: (item: T, index: number, handle: ReactNode) => ReactNode;
  /** Accessible name of the list. */
  label: string;
  testId?: string;
}

export function SortableRows<T>(props: SortableRowsProps<T>) {
  const { items, idOf, labelOf, onMove, label } = props;
  const { t } = useTranslation('projects');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map(idOf);
  const indexOf = (id: UniqueIdentifier) => ids.indexOf(String(id));
  const name = (id: UniqueIdentifier) => {
    const i = indexOf(id);
    return i < 0 ? String(id) : labelOf(items[i]);
  };
  const total = items.length;

  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('dnd.start', { code: name(active.id), position: indexOf(active.id) + 1, total }),
    onDragOver: ({ active, over }) =>
      over
        ? t('dnd.over', { code: name(active.id), position: indexOf(over.id) + 1, total })
        : t('dnd.outside', { code: name(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('dnd.end', { code: name(active.id), position: indexOf(over.id) + 1, total })
        : t('dnd.cancel', { code: name(active.id), position: indexOf(active.id) + 1 }),
    onDragCancel: ({ active }) =>
      t('dnd.cancel', { code: name(active.id), position: indexOf(active.id) + 1 }),
  };

  const [activeIndex, setActiveIndex] = useState<number | null>(null);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setActiveIndex(null);
    if (!over) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = items.length >= VIRTUAL_FROM;
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    enabled: virtual,
    // The row being dragged stays rendered when it scrolls out of view.
    rangeExtractor: useCallback(
      (range: Parameters<typeof defaultRangeExtractor>[0]) => {
        const shown = defaultRangeExtractor(range);
        return activeIndex === null || shown.includes(activeIndex)
          ? shown
          : [...shown, activeIndex].sort((a, b) => a - b);
      },
      [activeIndex],
    ),
  });
  const rows = virtual ? virtualizer.getVirtualItems() : null;
  const indexes = rows ? rows.map((r) => r.index) : items.map((_, i) => i);
  const paddingTop = rows?.length ? rows[0].start : 0;
  const paddingBottom = rows?.length ? virtualizer.getTotalSize() - rows[rows.length - 1].end : 0;

  return (
    <div ref={scrollRef} className="linker-scroll">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        modifiers={[verticalOnly]}
        onDragStart={({ active }) => setActiveIndex(indexOf(active.id))}
        onDragCancel={() => setActiveIndex(null)}
        onDragEnd={onDragEnd}
        measuring={virtual ? { droppable: { strategy: MeasuringStrategy.Always } } : undefined}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('dnd.instructions') } }}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <Box
            component="ol"
            aria-label={label}
            m={0}
            p={0}
            style={{ listStyle: 'none', paddingTop, paddingBottom }}
            data-testid={props.testId}
          >
            {indexes.map((index) => (
              <SortableRow
                key={ids[index]}
                id={ids[index]}
                item={items[index]}
                index={index}
                measure={virtual ? virtualizer.measureElement : undefined}
                {...props}
              />
            ))}
          </Box>
        </SortableContext>
      </DndContext>
    </div>
  );
}

function SortableRow<T>({
  id,
  item,
  index,
  items,
  measure,
  movable,
  lockedReason,
  labelOf,
  busy,
  renderRow,
}: SortableRowsProps<T> & {
  id: string;
  item: T;
  index: number;
  measure?: (el: Element | null) => void;
}) {
  const { t } = useTranslation('projects');
  const canMove = movable(item);
  const locked = canMove ? lockedReason(item) : null;
  const draggable = canMove && !locked && !busy;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, disabled: { draggable: !draggable, droppable: false } });
  const style: CSSProperties = {
    transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
    position: 'relative',
    zIndex: isDragging ? 2 : undefined,
    opacity: isDragging ? 0.85 : undefined,
  };
  const handle = !canMove ? null : locked ? (
    <Tooltip label={locked} multiline w={260} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('dnd.locked', { code: labelOf(item), reason: locked })}
        data-testid="locked-handle"
        style={{ cursor: 'not-allowed' }}
        onClick={(e) => e.preventDefault()}
      >
        <IconLock size={16} />
      </ActionIcon>
    </Tooltip>
  ) : (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      {...attributes}
      {...listeners}
      aria-label={t('dnd.handle', { code: labelOf(item) })}
      aria-disabled={busy || undefined}
      data-testid="drag-handle"
      style={{ cursor: busy ? 'progress' : isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
    >
      <IconGripVertical size={16} />
    </ActionIcon>
  );
  const ref = useCallback(
    (el: HTMLLIElement | null) => {
      setNodeRef(el);
      measure?.(el);
    },
    [setNodeRef, measure],
  );
  return (
    <li
      ref={ref}
      style={style}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={items.length}
      data-dragging={isDragging || undefined}
    >
      {renderRow(item, index, handle)}
    </li>
  );
}
