/**
 * `/webhooks`: the signed-in user's subscriptions (at most 3: how many are used is shown
 * before the limit is hit, and "New subscription" is disabled with the reason at 3), whose
 * they are (ScopeNote), each one's delivery log and deletion with confirmation.
 */
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconList, IconPlus, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import { ActionIconLink, AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList, type ListPartProps } from '../../../components/lists/resourceList.ts';
import { formatTimestamp } from '../../../components/records/format.ts';
import { EventTypes, ToneBadge } from '../components/Badges.tsx';
import { oneLineUrl } from '../components/CallbackUrl.tsx';
import { DeleteSubscriptionDialog } from '../components/DeleteSubscriptionDialog.tsx';
import { ScopeNote } from '../components/ScopeNote.tsx';
import { type LimitState, limitState } from '../model.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { webhooksKeys } from '../queries.ts';
import { type Subscription, webhooksApi, writeRows } from '../transport.ts';

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
    <Can call={writeRows.create}>
      <ButtonLink
        to={paths.subscription.new}
        leftSection={<IconPlus size={16} />}
        data-testid="new-subscription"
      >
        {t('list.new')}
      </ButtonLink>
    </Can>
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

/** The deletion dialog, opened from a row. */
const AskDelete = createContext<(s: Subscription) => void>(() => {});

function DeleteScope({ children }: { rows: readonly Subscription[]; children: ReactNode }) {
  const [deleting, setDeleting] = useState<Subscription | null>(null);
  return (
    <AskDelete.Provider value={setDeleting}>
      {children}
      <DeleteSubscriptionDialog subscription={deleting} onClose={() => setDeleting(null)} />
    </AskDelete.Provider>
  );
}

function RowActions({ s }: { s: Subscription }) {
  const { t } = useTranslation('webhooks');
  const askDelete = useContext(AskDelete);
  const log = t('list.logOf', { url: s.callbackUrl });
  const remove = t('list.deleteOne', { url: s.callbackUrl });
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('list.log')} withArrow>
        <ActionIconLink
          to={paths.subscription.detail}
          params={{ code: s.subscriptionId }}
          variant="subtle"
          aria-label={log}
        >
          <IconList size={16} />
        </ActionIconLink>
      </Tooltip>
      <Can call={writeRows.remove} hide>
        <Tooltip label={t('list.delete')} withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={() => askDelete(s)}
            aria-label={remove}
            data-testid="delete-subscription"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Can>
    </Group>
  );
}

/** How many of the 3 places are used, once the list is read. */
const limitOf = ({ rows, pending, error }: ListPartProps<{ q?: string }, Subscription>) =>
  pending || error ? undefined : limitState(rows.length);

function UsageBadge(parts: ListPartProps<{ q?: string }, Subscription>) {
  const { t } = useTranslation('webhooks');
  const limit = limitOf(parts);
  return limit ? (
    <ToneBadge
      color={limit.reached ? 'red' : 'gray'}
      size="lg"
      aria-label={t('list.usageLabel', { used: limit.used, limit: limit.limit })}
      data-testid="limit-badge"
    >
      {t('list.usage', { used: limit.used, limit: limit.limit })}
    </ToneBadge>
  ) : null;
}

const subscriptionsList = defineList<Subscription, { q?: string }>({
  ns: 'webhooks',
  route: getRouteApi(paths.subscription.list),
  text: {
    title: 'list.title',
    subtitle: 'list.subtitle',
    label: 'list.label',
    loading: 'list.loading',
    emptyTitle: 'list.emptyTitle',
    empty: 'list.empty',
    noMatchTitle: 'list.emptyTitle',
    noMatch: 'list.empty',
    clear: 'list.new',
  },
  columns: ({ t, lang }) => [
    {
      key: 'url',
      header: t('list.columns.url'),
      render: (s) => (
        <AnchorLink
          to={paths.subscription.detail}
          params={{ code: s.subscriptionId }}
          ff="monospace"
          size="sm"
          title={s.callbackUrl}
          style={oneLineUrl}
          data-testid="subscription-url"
        >
          {s.callbackUrl}
        </AnchorLink>
      ),
    },
    {
      key: 'events',
      header: t('list.columns.events'),
      width: 230,
      render: (s) => <EventTypes types={s.eventTypes} />,
    },
    {
      key: 'headers',
      header: t('list.columns.headers'),
      width: 150,
      render: (s) => {
        const names = Object.keys(s.headers);
        return names.length ? (
          <Text span size="sm" ff="monospace">
            {names.join(', ')}
          </Text>
        ) : (
          <Text span size="sm" c="dimmed">
            {t('list.none')}
          </Text>
        );
      },
    },
    {
      key: 'created',
      header: t('list.columns.created'),
      width: 170,
      render: (s) => formatTimestamp(s.createdAt, lang),
    },
    { key: 'actions', header: t('list.columns.actions'), width: 100, render: (s) => <RowActions s={s} /> },
  ],
  rowKey: (s) => s.subscriptionId,
  rowTestId: 'subscription-row',
  source: {
    kind: 'whole',
    key: webhooksKeys.subscriptions,
    page: async (client, _token, signal) => ({
      data: await webhooksApi(client).subscriptions(signal),
      continuationToken: null,
    }),
    matches: () => true,
  },
  TitleBadge: UsageBadge,
  Actions: (parts) => <NewSubscriptionButton limit={limitOf(parts)} />,
  Notice: (parts) => {
    const limit = limitOf(parts);
    return (
      <>
        <ScopeNote />
        {limit && <LimitLine limit={limit} />}
      </>
    );
  },
  EmptyAction: () => {
    const { t } = useTranslation('webhooks');
    return (
      <Can call={writeRows.create}>
        <ButtonLink to={paths.subscription.new} leftSection={<IconPlus size={16} />}>
          {t('list.new')}
        </ButtonLink>
      </Can>
    );
  },
  Around: DeleteScope,
});

export function SubscriptionsPage() {
  return <ResourceListPage list={subscriptionsList} />;
}
