/**
 * A record's History tab: its change log entries newest first (who, when, the action, each
 * changed field before -> after), filtered by actor, read by keyset pages of 20 ("Load
 * more"). The live stream marks it stale on each change of the record (shared/live), so an
 * open tab shows a new change as it happens.
 */
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Timeline,
} from '@mantine/core';
import { IconApps, IconRobot, IconUser, IconX } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statusOf } from '../../../../client/index.ts';
import type { ChangeEntry, HistoryPage } from '../../../../contract/changes.ts';
import { useApi } from '../../../app/api.ts';
import type { RecordTabProps } from '../../../app/feature.ts';
import { nextPageToken } from '../../../app/pages.ts';
import { EmptyState } from '../../../components/layout/EmptyState.tsx';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { formatTimestamp } from '../../../components/records/format.ts';
import { useDebounced } from '../../../components/useDebounced.ts';
import { historyKey } from '../../../shared/live/invalidate.ts';
import { diffRows, fieldLabel, fieldText } from '../diff.ts';
import { HISTORY_SOURCES, historyPath } from '../paths.ts';
import type { HistoryResource, HistorySource } from '../resources.ts';

const PAGE = 20;

const panels = new Map<HistoryResource, ComponentType<RecordTabProps>>();
/** The tab's panel of a resource (one component per resource, kept). */
export function historyPanelOf(resource: HistoryResource): ComponentType<RecordTabProps> {
  let Panel = panels.get(resource);
  if (!Panel) {
    const source = HISTORY_SOURCES[resource];
    Panel = ({ code }: RecordTabProps) => <HistoryPanel source={source} code={code} />;
    panels.set(resource, Panel);
  }
  return Panel;
}

function useHistory(source: HistorySource, code: string, actor: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: [...historyKey(source.kind, code), actor],
    queryFn: ({ pageParam, signal }) =>
      api.raw<HistoryPage>('GET', historyPath(source, code), {
        query: { limit: String(PAGE), actor: actor || undefined, continuationToken: pageParam },
        signal,
      }),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    retry: (n, e) => statusOf(e) !== 404 && n < 2,
  });
}

export function HistoryPanel({ source, code }: { source: HistorySource; code: string }) {
  const { t } = useTranslation('history');
  const [actorText, setActorText] = useState('');
  const actor = useDebounced(actorText.trim(), 300);
  const history = useHistory(source, code, actor);
  const entries = history.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Stack gap="md" data-testid="history-panel" aria-label={t('label')} role="region">
      <TextInput
        label={t('actor.label')}
        description={t('actor.description')}
        placeholder={t('actor.placeholder')}
        value={actorText}
        onChange={(e) => setActorText(e.currentTarget.value)}
        maw={360}
        data-testid="history-actor"
        rightSection={
          actorText ? (
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => setActorText('')}
              aria-label={t('actor.clear')}
            >
              <IconX size={14} />
            </ActionIcon>
          ) : null
        }
      />
      <QueryView
        query={history}
        loading={
          <Stack gap="sm" aria-busy="true" aria-label={t('loading')}>
            <Skeleton height={90} />
            <Skeleton height={90} />
          </Stack>
        }
        notFound={<EmptyState title={t('unavailable')} body={t('unavailableBody')} />}
        isEmpty={() => entries.length === 0}
        empty={
          actor ? (
            <EmptyState title={t('emptyActor', { actor })} body={t('emptyActorBody')} />
          ) : (
            <EmptyState title={t('empty')} body={t('emptyBody')} />
          )
        }
      >
        {() => (
          <Stack gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('count', { count: entries.length })}
            </Text>
            <Timeline bulletSize={26} lineWidth={2}>
              {entries.map((e) => (
                <Timeline.Item
                  key={e.id}
                  bullet={<ActorIcon type={e.actor.type} />}
                  data-testid="history-entry"
                >
                  <EntryView entry={e} />
                </Timeline.Item>
              ))}
            </Timeline>
            {history.hasNextPage ? (
              <Group>
                <Button
                  variant="default"
                  onClick={() => void history.fetchNextPage()}
                  loading={history.isFetchingNextPage}
                  data-testid="history-more"
                >
                  {t('loadMore')}
                </Button>
              </Group>
            ) : (
              <Text size="xs" c="dimmed">
                {t('end')}
              </Text>
            )}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

function ActorIcon({ type }: { type: string }) {
  const Icon = type === 'webService' ? IconApps : type === 'process' ? IconRobot : IconUser;
  return <Icon size={14} aria-hidden />;
}

const ACTION_COLOR: Record<string, string> = {
  created: 'teal',
  deleted: 'red',
  validated: 'grape',
  scheduled: 'blue',
  unscheduled: 'orange',
  linked: 'cyan',
  unlinked: 'orange',
};

function EntryView({ entry }: { entry: ChangeEntry }) {
  const { t, i18n } = useTranslation('history');
  const when = new Date(entry.at);
  const rows = diffRows(entry.fields);
  const by = t(`by.${entry.actor.type}`, {
    name: entry.actor.identifier,
    defaultValue: entry.actor.identifier,
  });
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" color={ACTION_COLOR[entry.action] ?? 'gray'} tt="none">
          {t(`action.${entry.action}`, { defaultValue: entry.action })}
        </Badge>
        <Text size="sm" fw={600} data-testid="history-actor-name">
          {by}
        </Text>
        <Text size="sm" c="dimmed" component="time" dateTime={entry.at}>
          {Number.isNaN(when.getTime())
            ? entry.at
            : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
                when,
              )}
        </Text>
      </Group>
      {rows.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('noFields')}
        </Text>
      ) : (
        <Paper withBorder radius="sm">
          <Table fz="sm" verticalSpacing={4} layout="fixed" data-testid="history-fields">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="28%">{t('columns.field')}</Table.Th>
                <Table.Th>{t('columns.before')}</Table.Th>
                <Table.Th>{t('columns.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.name} data-field={r.name}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <FieldName name={r.name} />
                  </Table.Td>
                  <Table.Td
                    className="history-before"
                    style={{ overflowWrap: 'anywhere', ...tint(r.before, 'red') }}
                  >
                    <Value v={r.before} />
                  </Table.Td>
                  <Table.Td
                    className="history-after"
                    style={{ overflowWrap: 'anywhere', ...tint(r.after, 'green') }}
                  >
                    <Value v={r.after} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}

/** A field's label, with its API name under it for integrators matching the log to their data. */
function FieldName({ name }: { name: string }) {
  const { t } = useTranslation('history');
  const label = fieldText(fieldLabel(name), t);
  // No label: the API name, once.
  if (label === name)
    return (
      <Text span size="sm" ff="monospace" translate="no" data-testid="history-field-name">
        {name}
      </Text>
    );
  return (
    <>
      <Text size="sm" data-testid="history-field-label">
        {label}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace" translate="no" data-testid="history-field-name">
        {name}
      </Text>
    </>
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The value that went (red) and the one that came (green); nothing is not tinted. */
const tint = (v: unknown, color: 'red' | 'green') =>
  v === null || v === undefined || v === '' ? {} : { background: `var(--mantine-color-${color}-light)` };

/** A value as read: "not set" for nothing, Yes/No, lists joined, objects as `key: value`. */
function Value({ v }: { v: unknown }) {
  const { t, i18n } = useTranslation('history');
  if (v === null || v === undefined || v === '')
    return (
      <Text span size="sm" c="dimmed" fs="italic">
        {t('notSet')}
      </Text>
    );
  if (typeof v === 'boolean') return <>{v ? t('yes') : t('no')}</>;
  // A date-time as the record pages show it (UTC, said).
  if (typeof v === 'string' && ISO_TIME.test(v)) return <>{formatTimestamp(v, i18n.language)}</>;
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return <>{v.join(', ')}</>;
  if (typeof v === 'object')
    return (
      <Text span size="xs" ff="monospace">
        {JSON.stringify(v)}
      </Text>
    );
  return <>{String(v)}</>;
}
