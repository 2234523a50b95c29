/**
 * One callback beside its log (`?delivery=<id>` in the URL): its id (the de-duplication key),
 * state, next retry, every attempt (time, response, duration, error), the payload POSTed,
 * and Replay (delivered or failed callbacks only: a pending one has its retries scheduled).
 */
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Drawer,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconRepeat, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { Field, valueOrNotSet } from '../../../components/records/RecordParts.tsx';
import { eventKey, serviceErrorText } from '../errors.ts';
import { formatDateTime, relativeTime } from '../model.ts';
import { notify } from '../notify.ts';
import { useDelivery, useReplay } from '../queries.ts';
import { type DeliveryDetail, writeRows } from '../transport.ts';
import { DeliveryStatusBadge } from './Badges.tsx';

function CopyText({ value, label, copied }: { value: string; label: string; copied: string }) {
  return (
    <CopyButton value={value}>
      {({ copied: done, copy }) => (
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={copy}
          leftSection={done ? <IconCheck size={12} /> : <IconCopy size={12} />}
        >
          {done ? copied : label}
        </Button>
      )}
    </CopyButton>
  );
}

/** Replay of the delivery shown: told in a notification (a refusal too), the delivery read again. */
function useReplayDelivery(
  subscriptionId: string,
  detail: ReturnType<typeof useDelivery>,
): { replay: () => Promise<void>; pending: boolean } {
  const { t } = useTranslation('webhooks');
  const replay = useReplay(subscriptionId);
  const d = detail.data;
  const doReplay = async () => {
    if (!d) return;
    try {
      await replay.mutateAsync(d.deliveryId);
      notify(t, {
        color: 'teal',
        title: t('delivery.replayedTitle'),
        message: t('delivery.replayed'),
      });
      await detail.refetch();
    } catch (e) {
      const error = readServiceError(e);
      if (error.status !== undefined && error.status < 500)
        notify(t, {
          color: 'red',
          title: t('common:form.errorTitle'),
          message: error.errors.map((x) => serviceErrorText(t, x)).join(' '),
        });
      await detail.refetch();
    }
  };
  return { replay: doReplay, pending: replay.isPending };
}

export function DeliveryDrawer({
  subscriptionId,
  deliveryId,
  onClose,
}: {
  subscriptionId: string;
  deliveryId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const detail = useDelivery(subscriptionId, deliveryId);
  const replay = useReplayDelivery(subscriptionId, detail);
  return (
    <Drawer
      opened={!!deliveryId}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Title order={2} size="h4" component="span">
          {t('delivery.title', { event: detail.data?.eventType ?? '' })}
        </Title>
      }
      closeButtonProps={{ 'aria-label': t('delivery.close') }}
      data-testid="delivery-drawer"
    >
      <QueryView
        query={detail}
        loading={
          <Stack gap="sm" aria-busy="true">
            <Skeleton height={24} width="60%" />
            <Skeleton height={120} />
            <Skeleton height={160} />
          </Stack>
        }
        notFound={
          <Alert color="gray" variant="light" data-testid="delivery-gone">
            {t('delivery.notFound')}
          </Alert>
        }
      >
        {(d) => (
          <Stack gap="md">
            <DeliveryState d={d} replay={replay} />
            <DeliveryFacts d={d} />
            <AttemptHistory d={d} />
            <DeliveryPayload d={d} />
          </Stack>
        )}
      </QueryView>
    </Drawer>
  );
}

/** Its status and event, and Replay (not while pending) with what it does. */
function DeliveryState({ d, replay }: { d: DeliveryDetail; replay: ReturnType<typeof useReplayDelivery> }) {
  const { t } = useTranslation('webhooks');
  return (
    <>
      <Group gap="sm" justify="space-between" align="flex-start">
        <Group gap="sm">
          <DeliveryStatusBadge status={d.status} />
          <Text size="sm" c="dimmed">
            {t(eventKey(d.eventType), { defaultValue: d.eventType })}
          </Text>
        </Group>
        <Can call={writeRows.replay}>
          <Button
            leftSection={<IconRepeat size={16} />}
            onClick={() => void replay.replay()}
            disabled={d.status === 'pending'}
            loading={replay.pending}
            aria-describedby="delivery-replay-hint"
            data-testid="replay"
          >
            {t('delivery.replay')}
          </Button>
        </Can>
      </Group>
      <Text size="xs" c="dimmed" id="delivery-replay-hint">
        {d.status === 'pending' ? t('delivery.replayPending') : t('delivery.replayHint')}
      </Text>
    </>
  );
}

/** Its id (the de-duplication key), times, attempts, next retry and last error. */
function DeliveryFacts({ d }: { d: DeliveryDetail }) {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.resolvedLanguage ?? 'en';
  const when = (iso: string | null) => formatDateTime(iso, lang);
  return (
    <Stack gap={8}>
      <Field label={t('delivery.id')}>
        <Group gap={4} wrap="nowrap">
          <Text span ff="monospace" size="sm" data-testid="delivery-id">
            {d.deliveryId}
          </Text>
          <CopyText value={d.deliveryId} label={t('delivery.copyId')} copied={t('delivery.copied')} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('delivery.idHint')}
        </Text>
      </Field>
      <Field label={t('delivery.created')}>{when(d.creationTime)}</Field>
      <Field label={t('delivery.attempts')}>
        <span data-testid="delivery-attempts">{d.attempts}</span>
      </Field>
      {d.status === 'pending' && d.nextAttemptAt && (
        <Field label={t('delivery.next')}>
          {when(d.nextAttemptAt)} ({relativeTime(d.nextAttemptAt, Date.now(), lang)})
        </Field>
      )}
      {d.deliveredAt && <Field label={t('delivery.deliveredAt')}>{when(d.deliveredAt)}</Field>}
      {d.lastError && <Field label={t('delivery.lastError')}>{valueOrNotSet(d.lastError)}</Field>}
    </Stack>
  );
}

/** Every attempt: its time, response, duration and result. */
function AttemptHistory({ d }: { d: DeliveryDetail }) {
  const { t, i18n } = useTranslation('webhooks');
  const when = (iso: string | null) => formatDateTime(iso, i18n.resolvedLanguage ?? 'en');
  return (
    <>
      <Title order={3} size="h5">
        {t('delivery.history')}
      </Title>
      {d.attemptHistory.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('delivery.noAttempt')}
        </Text>
      ) : (
        <Table withTableBorder striped aria-label={t('delivery.history')} data-testid="attempts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>{t('delivery.columns.attempt')}</Table.Th>
              <Table.Th>{t('delivery.columns.time')}</Table.Th>
              <Table.Th w={90}>{t('delivery.columns.response')}</Table.Th>
              <Table.Th w={90}>{t('delivery.columns.duration')}</Table.Th>
              <Table.Th>{t('delivery.columns.result')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.attemptHistory.map((a) => (
              <Table.Tr key={a.attempt} data-testid="attempt-row">
                <Table.Td>{a.attempt}</Table.Td>
                <Table.Td>
                  <Text size="sm">{when(a.time)}</Text>
                </Table.Td>
                <Table.Td data-testid="attempt-status">
                  {a.statusCode ?? (
                    <Text span size="sm" c="dimmed">
                      {t('log.noAnswer')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{t('log.ms', { ms: a.durationMs })}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap" align="flex-start">
                    {a.succeeded ? (
                      <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
                    ) : (
                      <IconX size={16} color="var(--mantine-color-red-7)" aria-hidden />
                    )}
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {a.succeeded ? t('delivery.ok') : (a.error ?? '')}
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}

/** The payload POSTed, to read and to copy. */
function DeliveryPayload({ d }: { d: DeliveryDetail }) {
  const { t } = useTranslation('webhooks');
  return (
    <>
      <Group justify="space-between" align="center">
        <Title order={3} size="h5">
          {t('delivery.payload')}
        </Title>
        <CopyText
          value={JSON.stringify(d.payload, null, 2)}
          label={t('delivery.copyPayload')}
          copied={t('delivery.copied')}
        />
      </Group>
      <Code block data-testid="delivery-payload" tabIndex={0}>
        {JSON.stringify(d.payload, null, 2)}
      </Code>
    </>
  );
}
