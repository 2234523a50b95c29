/**
 * The Catalog forms' share of the Referentials form kit: the error-body reader, the
 * unsaved-changes guard and the scroll helper are imported from there; what is specific to
 * the catalog (its error table, its API) is here: service errors on fields or in an Alert,
 * and save with an Undo notification (a compensating PUT of the previous version).
 */
import { Alert, Button, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconArrowBackUp } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  readServiceError,
  type ServiceError,
  UnsavedChangesDialog,
  useScrollIntoView,
  useUnsavedGuard,
} from '../../referentials/components/formKit.tsx';
import { serverErrorKey } from '../errorFields.ts';

export { readServiceError, type ServiceError, UnsavedChangesDialog, useScrollIntoView, useUnsavedGuard };

export function serverMessage(t: TFunction, err: { code: string; message: string }) {
  return t(serverErrorKey(err.code), { defaultValue: err.message });
}

/** Marks the fields the errors belong to; returns the errors tied to no field. */
export function applyServiceErrors<T extends FieldValues>(
  error: ServiceError,
  fieldFor: (e: { code: string; message: string }) => string | null,
  setError: UseFormSetError<T>,
  t: TFunction,
): ServiceError['errors'] {
  const unmapped: ServiceError['errors'] = [];
  let first = true;
  for (const err of error.errors) {
    const field = fieldFor(err);
    if (field) {
      setError(field as Path<T>, { type: 'server', message: serverMessage(t, err) }, { shouldFocus: first });
      first = false;
    } else unmapped.push(err);
  }
  return unmapped;
}

export function ServiceAlert({ error, onClose }: { error: ServiceError; onClose?: () => void }) {
  const { t } = useTranslation('catalog');
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      title={t('form.errorTitle')}
      withCloseButton={!!onClose}
      closeButtonLabel={t('form.close')}
      onClose={onClose}
      role="alert"
      data-testid="service-error"
    >
      <List size="sm" spacing={2}>
        {error.errors.map((e) => (
          <List.Item key={e.code}>
            {serverMessage(t, e)}{' '}
            <Text span size="xs" c="dimmed" ff="monospace">
              ({e.code})
            </Text>
          </List.Item>
        ))}
      </List>
      {error.errorReference && (
        <Text size="xs" mt="xs" c="dimmed">
          {t('form.errorReference', { ref: error.errorReference })}
        </Text>
      )}
    </Alert>
  );
}

/**
 * Sends a PUT at once, then notifies. An update offers Undo: the previous version written
 * back by a compensating PUT. A creation cannot be undone (the API has no DELETE), which the
 * notification says.
 */
export function useSaveWithUndo<B>(opts: {
  put: (code: string, body: B) => Promise<'created' | 'updated'>;
  invalidate: (code: string) => Promise<unknown>;
  /** Translated noun, capitalized: "Item", "Skill". */
  label: string;
}) {
  const { t } = useTranslation('catalog');
  return async (args: { code: string; body: B; previous: B | null }) => {
    const code = args.code.toUpperCase();
    const outcome = await opts.put(code, args.body);
    await opts.invalidate(code);
    if (args.previous === null || outcome === 'created') {
      notifications.show({
        title: t('notify.createdTitle', { entity: opts.label, code }),
        message: t('notify.createdNoUndo'),
        color: 'teal',
        autoClose: 8000,
        'data-testid': 'notify-created',
      });
      return outcome;
    }
    const previous = args.previous;
    const id = `undo-${opts.label}-${code}-${Date.now()}`;
    const undo = async () => {
      notifications.update({ id, loading: true, message: t('notify.undoing'), autoClose: false });
      try {
        await opts.put(code, previous);
        await opts.invalidate(code);
        notifications.update({
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
          id,
          loading: false,
          color: 'red',
          title: t('notify.undoFailedTitle'),
          message: `${err.errors.map((x) => serverMessage(t, x)).join(' ')}${err.errorReference ? ` (${err.errorReference})` : ''}`,
          autoClose: false,
        });
      }
    };
    notifications.show({
      id,
      title: t('notify.savedTitle', { entity: opts.label, code }),
      message: <UndoMessage label={t('notify.undo')} body={t('notify.savedBody')} onUndo={undo} />,
      color: 'teal',
      autoClose: 12000,
      'data-testid': 'notify-saved',
    });
    return outcome;
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
