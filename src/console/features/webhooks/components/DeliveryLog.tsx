/**
 * A subscription's delivery log: its deliveries newest first (keyset pages), filtered by
 * status in the URL; a row opens its attempts beside the log.
 */
import { Alert, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink } from '../../../components/links.tsx';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { formatDateTime, lastAnswer, relativeTime } from '../model.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useDeliveries } from '../queries.ts';
import { LOG_STATUSES, type SubscriptionSearch } from '../search.ts';
import type { Delivery } from '../transport.ts';
import { DeliveryStatusBadge } from './Badges.tsx';

/** An error status, readable (AA) on the table's rows in both schemes. */
const ERROR_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))';

interface LogProps {
  subscriptionId: string;
  code: string;
  search: SubscriptionSearch;
  setSearch: (next: SubscriptionSearch) => void;
}

export function DeliveryLog({ subscriptionId, code, search, setSearch }: LogProps) {
  const { t } = useTranslation('webhooks');
  const log = useDeliveries(subscriptionId, search.status);
  const rows = useMemo(() => log.data?.pages.flatMap((p) => p.data) ?? [], [log.data]);
  const columns = useDeliveryColumns(code, search);

  const error = log.isError ? readServiceError(log.error) : null;
  // A 404 that is not "this subscription does not exist": an instance without the extension.
  const unavailable = error?.status === 404 && !error.errors.some((e) => e.code.startsWith('webhooks.'));

  return (
    <>
      <LogHeader search={search} setSearch={setSearch} />
      <QueryView
        query={log}
        loadingRows={5}
        loadingLabel={t('log.loading')}
        // An instance without the delivery log extension (a 404 that is not about the subscription).
        explain={() =>
          unavailable ? (
            <Alert color="gray" variant="light" data-testid="log-unavailable">
              {t('log.unavailable')}
            </Alert>
          ) : undefined
        }
        isEmpty={() => rows.length === 0}
        empty={<EmptyLog search={search} setSearch={setSearch} />}
      >
        {() => (
          <VirtualTable
            rows={rows}
            columns={columns}
            rowKey={(d) => d.deliveryId}
            onOpen={(d) => setSearch({ ...search, delivery: d.deliveryId })}
            hasMore={!!log.hasNextPage}
            loadingMore={log.isFetchingNextPage}
            loadMore={() => void log.fetchNextPage()}
            label={t('log.label')}
          />
        )}
      </QueryView>
    </>
  );
}

/** The log's title and its status filter (in the URL). */
function LogHeader({ search, setSearch }: Pick<LogProps, 'search' | 'setSearch'>) {
  const { t } = useTranslation('webhooks');
  return (
    <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap" style={{ flexShrink: 0 }}>
      <Stack gap={4}>
        <Text fw={600} component="h2" size="md" m={0} id="delivery-log-title">
          {t('log.title')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('log.refresh')}
        </Text>
      </Stack>
      <Group gap="xs" align="center">
        <Text size="sm" fw={500} component="span" id="log-status-label">
          {t('log.status')}
        </Text>
        <SegmentedControl
          aria-labelledby="log-status-label"
          value={search.status ?? 'all'}
          onChange={(v) =>
            setSearch({
              ...search,
              status: v === 'all' ? undefined : v,
              delivery: undefined,
            })
          }
          data={[
            { value: 'all', label: t('log.all') },
            ...LOG_STATUSES.map((s) => ({ value: s, label: t(`log.${s}`) })),
          ]}
          data-testid="log-status"
        />
      </Group>
    </Group>
  );
}

/** No delivery: none at all, or none of the status filtered on (with the way back to all). */
function EmptyLog({ search, setSearch }: Pick<LogProps, 'search' | 'setSearch'>) {
  const { t } = useTranslation('webhooks');
  return search.status ? (
    <EmptyState
      title={t('log.noMatchTitle')}
      body={t('log.noMatch', { status: t(`log.badge.${search.status}`) })}
      action={
        <Button variant="default" onClick={() => setSearch({})}>
          {t('log.showAll')}
        </Button>
      }
    />
  ) : (
    <EmptyState title={t('log.emptyTitle')} body={t('log.empty')} />
  );
}

/** The last answer of a delivery: its status (red when not 2xx), no answer, or none yet. */
function LastAnswer({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('webhooks');
  const answer = lastAnswer(delivery);
  if (answer.kind === 'none')
    return (
      <Text span size="sm" c="dimmed">
        {t('log.notYet')}
      </Text>
    );
  if (answer.kind === 'status')
    return (
      <Text
        span
        size="sm"
        fw={500}
        style={answer.ok ? undefined : { color: ERROR_TEXT }}
        data-testid="delivery-response"
      >
        {answer.code}
      </Text>
    );
  return (
    <Text span size="sm" c="dimmed" title={answer.error} data-testid="delivery-response">
      {t('log.noAnswer')}
    </Text>
  );
}

/** The log's columns: the event (opening its attempts), times, status, attempts, the last answer, the next try. */
function useDeliveryColumns(code: string, search: SubscriptionSearch): Column<Delivery>[] {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.resolvedLanguage ?? 'en';
  const now = Date.now();
  return [
    {
      key: 'event',
      header: t('log.columns.event'),
      width: 190,
      render: (d) => (
        <AnchorLink
          to={paths.subscription.detail}
          params={{ code }}
          search={{ ...search, delivery: d.deliveryId }}
          replace
          size="sm"
          ff="monospace"
          aria-label={t('log.open', { event: d.eventType, date: formatDateTime(d.creationTime, lang) })}
          data-testid="delivery-open"
        >
          {d.eventType}
        </AnchorLink>
      ),
    },
    {
      key: 'created',
      header: t('log.columns.created'),
      // "Nov 28, 2026, 10:19:22 AM UTC" whole at 1280 px.
      width: 260,
      render: (d) => formatDateTime(d.creationTime, lang),
    },
    {
      key: 'status',
      header: t('log.columns.status'),
      width: 110,
      render: (d) => <DeliveryStatusBadge status={d.status} />,
    },
    {
      key: 'attempts',
      header: t('log.columns.attempts'),
      width: 95,
      render: (d) => <span data-testid="delivery-attempts">{d.attempts}</span>,
    },
    {
      key: 'response',
      header: t('log.columns.response'),
      width: 120,
      render: (d) => <LastAnswer delivery={d} />,
    },
    {
      key: 'duration',
      header: t('log.columns.duration'),
      width: 95,
      render: (d) => (d.lastDurationMs === null ? '' : t('log.ms', { ms: d.lastDurationMs })),
    },
    {
      key: 'next',
      header: t('log.columns.next'),
      render: (d) =>
        d.status === 'pending' && d.nextAttemptAt ? (
          <span title={formatDateTime(d.nextAttemptAt, lang) ?? undefined}>
            {relativeTime(d.nextAttemptAt, now, lang)}
          </span>
        ) : d.status === 'failed' ? (
          t('log.givenUp')
        ) : (
          ''
        ),
    },
  ];
}
