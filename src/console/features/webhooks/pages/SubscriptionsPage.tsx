/**
 * `/webhooks`: the signed-in user's subscriptions (at most 3: how many are used is shown
 * before the limit is hit, and "New subscription" is disabled with the reason at 3), whose
 * they are (ScopeNote), each one's delivery log and deletion with confirmation.
 */
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconList, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { formatTimestamp } from '../../../components/records/format.ts';
import { EventTypes, ToneBadge } from '../components/Badges.tsx';
import { DeleteSubscriptionDialog } from '../components/DeleteSubscriptionDialog.tsx';
import { ScopeNote } from '../components/ScopeNote.tsx';
import { type LimitState, limitState } from '../model.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useSubscriptions } from '../queries.ts';
import type { Subscription } from '../transport.ts';

const LIMIT_REASON_ID = 'webhooks-limit-reason';

/** "New subscription": a link while there is room, a disabled button saying why at the limit. */
export function NewSubscriptionButton({ limit }: { limit: LimitState | undefined }) {
  const { t } = useTranslation('webhooks');
  if (limit?.reached)
    return (
      <Button
        leftSection={<IconPlus size={16} />}
        disabled
        aria-describedby={LIMIT_REASON_ID}
        data-testid="new-subscription"
      >
        {t('list.new')}
      </Button>
    );
  return (
    <ButtonLink
      to={paths.subscription.new}
      leftSection={<IconPlus size={16} />}
      data-testid="new-subscription"
    >
      {t('list.new')}
    </ButtonLink>
  );
}

function LimitLine({ limit }: { limit: LimitState }) {
  const { t } = useTranslation('webhooks');
  return (
    <Text
      size="sm"
      c={limit.reached ? undefined : 'dimmed'}
      fw={limit.reached ? 600 : undefined}
      id={LIMIT_REASON_ID}
      data-testid="limit-line"
    >
      {limit.reached
        ? t('list.reached', { limit: limit.limit })
        : t('list.remaining', { count: limit.remaining, used: limit.used, limit: limit.limit })}
    </Text>
  );
}

export function SubscriptionsPage() {
  const { t, i18n } = useTranslation('webhooks');
  const lang = i18n.resolvedLanguage ?? 'en';
  const list = useSubscriptions();
  const [deleting, setDeleting] = useState<Subscription | null>(null);
  const limit = list.data ? limitState(list.data.length) : undefined;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        subtitle={t('list.subtitle')}
        badge={
          limit && (
            <ToneBadge
              color={limit.reached ? 'red' : 'gray'}
              size="lg"
              aria-label={t('list.usageLabel', { used: limit.used, limit: limit.limit })}
              data-testid="limit-badge"
            >
              {t('list.usage', { used: limit.used, limit: limit.limit })}
            </ToneBadge>
          )
        }
        actions={<NewSubscriptionButton limit={limit} />}
      />
      <ScopeNote />
      {list.isPending ? (
        <LoadingState rows={3} label={t('list.loading')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          {limit && <LimitLine limit={limit} />}
          {list.data.length === 0 ? (
            <EmptyState
              title={t('list.emptyTitle')}
              body={t('list.empty')}
              action={
                <ButtonLink to={paths.subscription.new} leftSection={<IconPlus size={16} />}>
                  {t('list.new')}
                </ButtonLink>
              }
            />
          ) : (
            <Table.ScrollContainer minWidth={820}>
              <Table
                verticalSpacing="sm"
                withTableBorder
                highlightOnHover
                aria-label={t('list.label')}
                data-testid="subscriptions"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('list.columns.url')}</Table.Th>
                    <Table.Th w={230}>{t('list.columns.events')}</Table.Th>
                    <Table.Th w={170}>{t('list.columns.headers')}</Table.Th>
                    <Table.Th w={170}>{t('list.columns.created')}</Table.Th>
                    <Table.Th w={210}>{t('list.columns.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.map((s) => {
                    const names = Object.keys(s.headers);
                    return (
                      <Table.Tr key={s.subscriptionId} data-testid="subscription-row">
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          <AnchorLink
                            to={paths.subscription.detail}
                            params={{ code: s.subscriptionId }}
                            ff="monospace"
                            size="sm"
                            data-testid="subscription-url"
                          >
                            {s.callbackUrl}
                          </AnchorLink>
                        </Table.Td>
                        <Table.Td>
                          <EventTypes types={s.eventTypes} />
                        </Table.Td>
                        <Table.Td>
                          {names.length ? (
                            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                              {names.join(', ')}
                            </Text>
                          ) : (
                            <Text size="sm" c="dimmed">
                              {t('list.none')}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{formatTimestamp(s.createdAt, lang)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            <ButtonLink
                              to={paths.subscription.detail}
                              params={{ code: s.subscriptionId }}
                              size="compact-sm"
                              variant="subtle"
                              leftSection={<IconList size={14} />}
                              aria-label={t('list.logOf', { url: s.callbackUrl })}
                            >
                              {t('list.log')}
                            </ButtonLink>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              leftSection={<IconTrash size={14} />}
                              onClick={() => setDeleting(s)}
                              aria-label={t('list.deleteOne', { url: s.callbackUrl })}
                              data-testid="delete-subscription"
                            >
                              {t('list.delete')}
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
      <DeleteSubscriptionDialog subscription={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
