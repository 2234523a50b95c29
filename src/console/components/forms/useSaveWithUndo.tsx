import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorSentence, readServiceError, type ServiceErrorItem } from './serviceErrors.ts';

/** What a conditional write answered: created or updated, and the record's new version. */
export interface WriteResult {
  outcome: 'created' | 'updated';
  /** The ETag of the version written (null when the service sends none). */
  etag: string | null;
}

/** A PUT of a record; `ifMatch` makes it conditional (412 when the record changed since). */
export type PutRecord<B> = (code: string, body: B, opts: { ifMatch?: string | null }) => Promise<WriteResult>;

/**
 * Sends a PUT at once, then notifies. An update offers Undo: the previous version written
 * back by a compensating PUT, on the condition that the record is still the version this
 * save wrote (If-Match): a change made by someone else meanwhile is not undone, the Undo
 * says so instead. A creation cannot be undone (the API has no DELETE), which the
 * notification says.
 *
 * The feature gives the write (`put`), what to refresh after it (`invalidate`, also after an
 * Undo), the translated noun `entity` ("Customer", "Item"), and `explain` (the translated
 * text of a service error, for a failed Undo). Texts are the `common` namespace's `notify.*`.
 */
export function useSaveWithUndo<B>(opts: {
  put: PutRecord<B>;
  invalidate: (code: string) => Promise<unknown>;
  entity: string;
  explain: (err: ServiceErrorItem) => string;
}) {
  const { t } = useTranslation('common');
  /** Shared by every notification of a save: a named close button and readable text (AA contrast). */
  const look = {
    closeButtonProps: { 'aria-label': t('undo.close') },
    styles: { description: { color: 'var(--mantine-color-text)' } },
  };
  return async (args: {
    code: string;
    body: B;
    previous: B | null;
    ifMatch?: string | null;
  }): Promise<WriteResult> => {
    const code = args.code.toUpperCase();
    const written = await opts.put(code, args.body, { ifMatch: args.ifMatch });
    await opts.invalidate(code);
    if (args.previous === null || written.outcome === 'created') {
      notifications.show({
        ...look,
        title: t('notify.createdTitle', { entity: opts.entity, code }),
        message: t('notify.createdNoUndo'),
        color: 'teal',
        autoClose: 8000,
        'data-testid': 'notify-created',
      });
      return written;
    }
    const previous = args.previous;
    const id = `undo-${opts.entity}-${code}-${Date.now()}`;
    const undo = async () => {
      notifications.update({ ...look, id, loading: true, message: t('undo.undoing'), autoClose: false });
      try {
        await opts.put(code, previous, { ifMatch: written.etag });
        await opts.invalidate(code);
        notifications.update({
          ...look,
          id,
          loading: false,
          color: 'teal',
          title: t('notify.undoneTitle'),
          message: t('notify.undoneBody', { code }),
          autoClose: 5000,
        });
      } catch (e) {
        const err = readServiceError(e);
        notifications.update({
          ...look,
          id,
          loading: false,
          color: 'red',
          title: t('undo.failedTitle'),
          message: err.status === 412 ? t('undo.changedSince', { code }) : errorSentence(err, opts.explain),
          autoClose: false,
        });
      }
    };
    notifications.show({
      ...look,
      id,
      title: t('notify.savedTitle', { entity: opts.entity, code }),
      message: <UndoMessage label={t('undo.action')} body={t('notify.savedBody')} onUndo={undo} />,
      color: 'teal',
      autoClose: 12000,
      'data-testid': 'notify-saved',
    });
    return written;
  };
}

function UndoMessage({ body, label, onUndo }: { body: string; label: string; onUndo: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm">{body}</Text>
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconArrowBackUp size={14} />}
        loading={busy}
        data-testid="undo"
        onClick={async () => {
          setBusy(true);
          await onUndo();
        }}
      >
        {label}
      </Button>
    </Group>
  );
}
