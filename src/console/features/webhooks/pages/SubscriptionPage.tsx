/**
 * `/webhooks/$code` (a subscription id): the subscription (URL, event types, custom headers),
 * "Send a test event" with its feedback, deletion with confirmation, and its delivery log:
 * newest first, filtered by status (`?status=` in the URL), read again every few seconds
 * while callbacks are pending; a callback's attempts open beside it (`?delivery=`).
 */
import { Badge, Button, Card, Group, Skeleton, Stack, Switch, Text, VisuallyHidden } from '@mantine/core';
import { IconSend, IconTrash } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { LoadingState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { formatTimestamp } from '../../../components/records/format.ts';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { BackLabel, Field, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { RecordTabButtons } from '../../../components/records/RecordTabs.tsx';
import { useRecordName } from '../../../components/records/recordName.tsx';
import { EventTypes } from '../components/Badges.tsx';
import { BreakableUrl } from '../components/CallbackUrl.tsx';
import { DeleteSubscriptionDialog } from '../components/DeleteSubscriptionDialog.tsx';
import { DeliveryDrawer } from '../components/DeliveryDrawer.tsx';
import { DeliveryLog } from '../components/DeliveryLog.tsx';
import { serviceErrorText } from '../errors.ts';
import { maskValue } from '../model.ts';
import { notify } from '../notify.ts';
import { webhooksPaths as paths } from '../paths.ts';
import { useSendTest, useSubscriptions } from '../queries.ts';
import type { SubscriptionSearch } from '../search.ts';
import type { Subscription } from '../transport.ts';
import { writeRows } from '../transport.ts';

const route = getRouteApi(paths.subscription.detail);

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export function SubscriptionPage({ tabs }: { tabs: readonly RecordTab[] }) {
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
  // The breadcrumbs and the title name it by its callback's host, not its uuid.
  useRecordName(subscription ? hostOf(subscription.callbackUrl) : undefined);
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
            <RecordTabButtons tabs={tabs} code={id} />
            <TestEventButton
              subscriptionId={id}
              onOpen={(deliveryId) => setSearch({ ...search, delivery: deliveryId })}
            />
            <Can call={writeRows.remove}>
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDeleting(subscription)}
                data-testid="delete-subscription"
              >
                {t('detail.delete')}
              </Button>
            </Can>
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
      <Can call={writeRows.test}>
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
      </Can>
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
              <BreakableUrl url={subscription.callbackUrl} />
            </Text>
          </Field>
          <Field label={t('detail.events')}>
            <EventTypes types={subscription.eventTypes} />
          </Field>
          <Field label={t('detail.secret')}>
            <Group gap="xs" wrap="wrap">
              <Badge
                variant="light"
                color={subscription.secretSet ? 'teal' : 'gray'}
                radius="sm"
                styles={{ label: { color: 'var(--mantine-color-text)' } }}
                data-testid="subscription-secret"
              >
                {subscription.secretSet ? t('detail.secretSet') : t('detail.secretNotSet')}
              </Badge>
              <Text span size="sm" c="dimmed">
                {subscription.secretSet ? t('detail.secretSetNote') : t('detail.secretNotSetNote')}
              </Text>
            </Group>
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
