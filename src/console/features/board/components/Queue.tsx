/**
 * The unscheduled queue beside the board: work orders of the caller's tree in NEW, QUALIFIED
 * or PRE_SCHEDULED, by code, a page at a time (keyset, "Load more"), filtered by code prefix
 * and type. A card is dragged onto a lane, or picked with Enter and moved with the arrows.
 */
import { Badge, Button, Card, Group, ScrollArea, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkOrder } from '../../../../contract/fieldService.ts';
import { EmptyState, ErrorState } from '../../../components/layout/index.ts';
import { LoadingState } from '../../../components/layout/LoadingState.tsx';
import { useQueue, useReferences } from '../queries.ts';
import { statusColor } from '../status.ts';
import type { QueueFilters } from '../transport.ts';
import type { Dispatch, Target } from '../useDispatch.ts';
import type { Explain } from '../verdict.ts';

/** Memoized: a page of the board's rows arriving does not draw the queue again. */
export const Queue = memo(function Queue({
  filters,
  text,
  onText,
  onType,
  dispatch,
  explain,
  firstTarget,
}: {
  filters: QueueFilters;
  /** The code box's value (written to the URL after a pause). */
  text: string;
  onText: (text: string) => void;
  onType: (type: string | undefined) => void;
  dispatch: Dispatch;
  explain: Explain;
  /** Where a work order picked with the keyboard starts (the first lane, the first hour). */
  firstTarget: () => Target | null;
}) {
  const { t } = useTranslation('board');
  const queue = useQueue(filters);
  const all = queue.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Stack gap="xs" h="100%" style={{ minHeight: 0 }} data-testid="board-queue">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h4">
          {t('queue.title')}
        </Title>
        {queue.data && (
          <Badge variant="light" color="gray" style={{ textTransform: 'none' }} data-testid="queue-count">
            {queue.hasNextPage
              ? t('queue.countMore', { count: all.length })
              : t('queue.count', { count: all.length })}
          </Badge>
        )}
      </Group>
      <QueueFilterInputs t={t} filters={filters} text={text} onText={onText} onType={onType} />
      <ScrollArea.Autosize mah="calc(100dvh - 330px)" type="auto" offsetScrollbars>
        {queue.isPending ? (
          <LoadingState rows={4} label={t('queue.loading')} />
        ) : queue.isError && !queue.data ? (
          <ErrorState error={queue.error} onRetry={() => void queue.refetch()} />
        ) : all.length === 0 ? (
          <EmptyState title={t('queue.noneTitle')} body={t('queue.none')} />
        ) : (
          <QueueList all={all} t={t} dispatch={dispatch} explain={explain} firstTarget={firstTarget} />
        )}
        {queue.hasNextPage && (
          <Button
            variant="light"
            fullWidth
            mt="xs"
            onClick={() => void queue.fetchNextPage()}
            loading={queue.isFetchingNextPage}
            data-testid="queue-more"
          >
            {t('queue.more')}
          </Button>
        )}
        {queue.isError && queue.data && (
          <ErrorState error={queue.error} onRetry={() => void queue.fetchNextPage()} />
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
});

/** The queue's filters: the code prefix and the work order type. */
function QueueFilterInputs({
  t,
  filters,
  text,
  onText,
  onType,
}: {
  t: TFunction<'board'>;
  filters: QueueFilters;
  text: string;
  onText: (text: string) => void;
  onType: (type: string | undefined) => void;
}) {
  const { types } = useReferences();
  return (
    <>
      <TextInput
        label={t('queue.code')}
        placeholder={t('queue.codePlaceholder')}
        leftSection={<IconSearch size={14} aria-hidden />}
        value={text}
        onChange={(e) => onText(e.currentTarget.value)}
        data-testid="queue-search"
      />
      <Select
        label={t('queue.type')}
        placeholder={t('queue.anyType')}
        clearable
        data={(types.data ?? []).map((ty) => ({ value: ty.workOrderTypeCode, label: ty.name }))}
        value={filters.workOrderTypeCode ?? null}
        onChange={(v) => onType(v ?? undefined)}
        data-testid="queue-type"
      />
    </>
  );
}

/** The work orders of the pages read so far, a card each. */
function QueueList({
  all,
  t,
  dispatch,
  explain,
  firstTarget,
}: {
  all: readonly WorkOrder[];
  t: TFunction<'board'>;
  dispatch: Dispatch;
  explain: Explain;
  firstTarget: () => Target | null;
}) {
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('queue.title')}>
      {all.map((w) => (
        <li key={w.uuid}>
          <QueueCard w={w} t={t} dispatch={dispatch} explain={explain} firstTarget={firstTarget} />
        </li>
      ))}
    </Stack>
  );
}

/** A work order of the queue: dragged onto a lane, or picked with Enter (or Space) for the arrows. */
function QueueCard({
  w,
  t,
  dispatch,
  explain,
  firstTarget,
}: {
  w: WorkOrder;
  /** The queue's (not one translation hook per card). */
  t: TFunction<'board'>;
  dispatch: Dispatch;
  explain: Explain;
  firstTarget: () => Target | null;
}) {
  const { picked } = dispatch;
  const refusal = dispatch.refusals.get(w.workOrderCode);
  const hint = t('queue.moveHint');
  // With the keyboard before any row is shown, the pick lands on the first row once one is (useDispatch).
  const pick = (by: 'mouse' | 'keyboard', at: Target | null) => {
    dispatch.pick(
      { workOrderCode: w.workOrderCode, durationMs: w.schedule.durationMinutes * 60_000, from: null, by },
      at,
    );
  };
  return (
    <Card
      withBorder
      padding={8}
      className="bd-card"
      draggable
      tabIndex={0}
      role="button"
      aria-label={`${t('queue.cardLabel', {
        code: w.workOrderCode,
        type: w.workOrderTypeName,
        customer: w.customerCode ?? t('bar.noCustomer'),
        minutes: w.schedule.durationMinutes,
      })}. ${hint}`}
      aria-pressed={picked?.workOrderCode === w.workOrderCode}
      data-picked={picked?.workOrderCode === w.workOrderCode ? '' : undefined}
      data-testid="queue-card"
      data-code={w.workOrderCode}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/plain', w.workOrderCode);
        e.dataTransfer.effectAllowed = 'move';
        pick('mouse', null);
      }}
      onDragEnd={() => dispatch.cancel(false)}
      onKeyDown={(e) => {
        if (picked || (e.key !== 'Enter' && e.key !== ' ')) return;
        e.preventDefault();
        e.stopPropagation();
        pick('keyboard', firstTarget());
      }}
    >
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text size="sm" fw={600} truncate>
          {w.workOrderCode}
        </Text>
        <Badge size="xs" variant="light" color={statusColor(w.status)} style={{ flexShrink: 0 }}>
          {t(`common:workOrderStatus.${w.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" truncate>
        {w.workOrderTypeName} · {t('queue.minutes', { count: w.schedule.durationMinutes })}
        {w.customerCode ? ` · ${w.customerCode}` : ''}
      </Text>
      {refusal && (
        <Text size="xs" c="red" data-testid="queue-refusal">
          {t('bar.refused', { reason: explain(refusal) })}
        </Text>
      )}
    </Card>
  );
}
