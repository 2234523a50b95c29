/**
 * `/webhooks/$code` (a subscription id): the subscription (URL, event types, custom headers),
 * "Send a test event" with its feedback, deletion with confirmation, and its delivery log:
 * newest first, filtered by status (`?status=` in the URL), read again every few seconds
 * while callbacks are pending; a callback's attempts open beside it (`?delivery=`).
 */
import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconSend, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState, LoadingState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { formatTimestamp } from '../../../components/records/format.ts';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { BackLabel, Field, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { DeliveryStatusBadge, EventTypes } from '../components/Badges.tsx';
import { DeleteSubscriptionDialog } from '../components/DeleteSubscriptionDialog.tsx';
import { DeliveryDrawer } from '../components/DeliveryDrawer.tsx';
import { serviceErrorText } from '../errors.ts';
import { formatDateTime, lastAnswer, maskValue, relativeTime } from '../model.ts';
import { notify } from '../notify.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useDeliveries, useSendTest, useSubscriptions } from '../queries.ts';
import { LOG_STATUSES, type LogStatus, type SubscriptionSearch } from '../search.ts';
import type { Delivery, Subscription } from '../transport.ts';

const route = getRouteApi(paths.subscription.detail);
/** An error status, readable (AA) on the table's rows in both schemes. */
const ERROR_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))';

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export function SubscriptionPage() {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.resolvedLanguage ?? 'en';
  const { code } = route.useParams();
  const id = code.toLowerCase();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (next: SubscriptionSearch) =>
    void navigate({ to: paths.subscription.detail, params: { code }, search: next, replace: true });
  const list = useSubscriptions();
  const subscription = list.data?.find((s) => s.subscriptionId === id);
  const [deleting, setDeleting] = useState<Subscription | null>(null);

  const back = (
    <AnchorLink to={paths.subscription.list} size="sm">
      <BackLabel>{t('detail.back')}</BackLabel>
    </AnchorLink>
  );

  if (!subscription)
    return (
      <QueryView
        query={list}
        loading={
          <Stack gap="md" aria-busy="true">
            <Skeleton height={40} width={360} />
            <Skeleton height={120} />
            <LoadingState rows={5} />
          </Stack>
        }
      >
        {() => (
          <RecordNotFound
            body={t('detail.notFound', { id: code })}
            back={(_, icon) => (
              <ButtonLink to={paths.subscription.list} variant="default" leftSection={icon}>
                {t('form.back')}
              </ButtonLink>
            )}
          />
        )}
      </QueryView>
    );

  return (
    <ListFrame>
      <RecordHeader
        back={back}
        title={<span data-testid="subscription-title">{hostOf(subscription.callbackUrl)}</span>}
        subtitle={t('detail.subtitle', {
          id: subscription.subscriptionId,
          date: formatTimestamp(subscription.createdAt, lang),
        })}
        actions={
          <>
            <TestEventButton
              subscriptionId={id}
              onOpen={(deliveryId) => setSearch({ ...search, delivery: deliveryId })}
            />
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => setDeleting(subscription)}
              data-testid="delete-subscription"
            >
              {t('detail.delete')}
            </Button>
          </>
        }
      />
      <Settings subscription={subscription} />
      <DeliveryLog subscriptionId={id} code={code} search={search} setSearch={setSearch} />
      <DeliveryDrawer
        subscriptionId={id}
        deliveryId={search.delivery}
        onClose={() => setSearch({ ...search, delivery: undefined })}
      />
      <DeleteSubscriptionDialog
        subscription={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => void navigate({ to: paths.subscription.list })}
      />
    </ListFrame>
  );
}

/**
 * "Send a test event": queues a `webhooks.test` callback, says so, and opens its attempts
 * beside the log, where its delivery (and any retry) shows as it happens.
 */
function TestEventButton({
  subscriptionId,
  onOpen,
}: {
  subscriptionId: string;
  onOpen: (deliveryId: string) => void;
}) {
  const { t } = useTranslation('webhooks');
  const send = useSendTest(subscriptionId);
  const run = async () => {
    try {
      const d = await send.mutateAsync();
      notify(t, {
        color: 'teal',
        title: t('detail.testQueuedTitle'),
        message: t('detail.testQueued', { id: d.deliveryId }),
      });
      onOpen(d.deliveryId);
    } catch (e) {
      const error = readServiceError(e);
      if (error.status !== undefined && error.status < 500)
        notify(t, {
          color: 'red',
          title: t('common:form.errorTitle'),
          message: error.errors.map((x) => serviceErrorText(t, x)).join(' '),
        });
    }
  };
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconSend size={16} />}
        onClick={() => void run()}
        loading={send.isPending}
        aria-describedby="send-test-hint"
        title={t('detail.testHint')}
        data-testid="send-test"
      >
        {t('detail.test')}
      </Button>
      <VisuallyHidden id="send-test-hint">{t('detail.testHint')}</VisuallyHidden>
    </>
  );
}

function Settings({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation('webhooks');
  const [shown, setShown] = useState(false);
  const headers = Object.entries(subscription.headers);
  return (
    <Card withBorder radius="md" padding="md" data-testid="subscription-settings" style={{ flexShrink: 0 }}>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack gap={8} style={{ flex: '1 1 420px', minWidth: 0 }}>
          <Field label={t('detail.url')}>
            <Text span ff="monospace" size="sm" data-testid="subscription-callback-url">
              {subscription.callbackUrl}
            </Text>
          </Field>
          <Field label={t('detail.events')}>
            <EventTypes types={subscription.eventTypes} />
          </Field>
          <Field label={t('detail.secret')}>
            <Text span size="sm" c="dimmed">
              {t('detail.secretNote')}
            </Text>
          </Field>
        </Stack>
        <Stack gap={8} style={{ flex: '1 1 300px', minWidth: 0 }}>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {t('detail.headers')}
            </Text>
            {headers.length > 0 && (
              <Switch
                size="xs"
                label={t('detail.showValues')}
                checked={shown}
                onChange={(e) => setShown(e.currentTarget.checked)}
              />
            )}
          </Group>
          {headers.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('list.none')}
            </Text>
          ) : (
            <Stack gap={2} data-testid="subscription-headers">
              {headers.map(([name, value]) => (
                <Text key={name} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {name}: {shown ? value : maskValue(value)}
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

function DeliveryLog({
  subscriptionId,
  code,
  search,
  setSearch,
}: {
  subscriptionId: string;
  code: string;
  search: SubscriptionSearch;
  setSearch: (next: SubscriptionSearch) => void;
}) {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.resolvedLanguage ?? 'en';
  const log = useDeliveries(subscriptionId, search.status);
  const rows = useMemo(() => log.data?.pages.flatMap((p) => p.data) ?? [], [log.data]);
  const now = Date.now();

  const columns: Column<Delivery>[] = [
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
      // "Dec 28, 2026, 12:35:53 PM UTC" whole at 1280 px.
      width: 240,
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
      render: (d) => {
        const answer = lastAnswer(d);
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
      },
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

  const error = log.isError ? readServiceError(log.error) : null;
  // A 404 that is not "this subscription does not exist": an instance without the extension.
  const unavailable = error?.status === 404 && !error.errors.some((e) => e.code.startsWith('webhooks.'));

  return (
    <>
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
                status: v === 'all' ? undefined : (v as LogStatus),
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
        empty={
          search.status ? (
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
          )
        }
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
