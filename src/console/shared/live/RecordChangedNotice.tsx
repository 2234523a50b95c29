/**
 * "Changed by X just now" on an edit form whose record another user changed after it was
 * opened (issue 29 §3): the form keeps what the user typed and offers to reload. The form
 * holds its record meanwhile (not read again under it: ./invalidate.ts); the 412 of the
 * save stays the backstop.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconUserEdit } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangeEntry } from './entry.ts';
import { useLiveHub } from './hub.ts';

/**
 * The latest change of (kind, code) by someone else since the form opened (null: none).
 * The user's own saves are theirs to know (they come back through the stream too).
 */
export function useRecordChanged(kind: string | undefined, code: string | undefined) {
  const hub = useLiveHub();
  const [entry, setEntry] = useState<ChangeEntry | null>(null);
  useEffect(() => {
    if (!hub || !kind || !code) return;
    const release = hub.hold(kind, code);
    const stop = hub.onEntry((e) => {
      if (e.kind === kind && e.code.toUpperCase() === code.toUpperCase() && e.actor.identifier !== hub.me)
        setEntry(e);
    });
    return () => {
      stop();
      release();
    };
  }, [hub, kind, code]);
  return { entry, dismiss: () => setEntry(null) };
}

export function RecordChangedNotice({
  entry,
  onReload,
  onDismiss,
  reloading,
}: {
  entry: ChangeEntry;
  onReload: () => void;
  onDismiss: () => void;
  reloading: boolean;
}) {
  const { t } = useTranslation('common');
  const actor = entry.actor.identifier;
  const fields = entry.fields.map((f) => f.name).join(', ');
  return (
    <Alert
      color="orange"
      icon={<IconUserEdit size={18} />}
      title={
        entry.action === 'deleted' ? t('live.deletedTitle', { actor }) : t('live.changedTitle', { actor })
      }
      data-testid="record-changed"
      role="alert"
      // The light orange title is under AA contrast: the text's own color, the icon says orange.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Text size="sm">
        {fields && `${t('live.fields', { fields })} `}
        {t('live.changedBody')}
      </Text>
      <Group gap="sm" mt="sm">
        <Button size="xs" onClick={onReload} loading={reloading} data-testid="record-changed-reload">
          {t('live.reload')}
        </Button>
        <Button size="xs" variant="default" onClick={onDismiss} disabled={reloading}>
          {t('live.dismiss')}
        </Button>
      </Group>
    </Alert>
  );
}
