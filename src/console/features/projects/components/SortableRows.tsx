/**
 * An ordered list whose movable rows are dragged to a new place, with the pointer or the
 * keyboard (dnd-kit: Space or Enter on a row's handle picks it up, the arrow keys move it,
 * Space or Enter drops it, Escape puts it back), each step announced to screen readers.
 * Rows that cannot move (phases, tasks, a closed service order) stay places a row can be
 * dropped at. The list tells its owner `onMove(from, to)` (`to`: the place in the result);
 * the owner reorders optimistically and sends the link call.
 */
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
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
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0 && from !== to) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('dnd.instructions') } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <Box
          component="ol"
          aria-label={label}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          data-testid={props.testId}
        >
          {items.map((item, index) => (
            <SortableRow key={ids[index]} id={ids[index]} item={item} index={index} {...props} />
          ))}
        </Box>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow<T>({
  id,
  item,
  index,
  movable,
  lockedReason,
  labelOf,
  busy,
  renderRow,
}: SortableRowsProps<T> & { id: string; item: T; index: number }) {
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
  return (
    <li ref={setNodeRef} style={style} data-dragging={isDragging || undefined}>
      {renderRow(item, index, handle)}
    </li>
  );
}
