/**
 * What the three Referentials forms share: service errors mapped to fields (table in
 * ../errorFields.ts) or shown in an Alert with the errorReference, the unsaved-changes
 * guard, and the save-then-offer-Undo flow (a compensating PUT of the previous version).
 */
import { Alert, Button, Group, List, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconArrowBackUp } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { refKeys } from '../api.ts';
import {
  customFieldCodesInMessage,
  errorMessageKey,
  fieldForError,
  type ReferentialEntity,
} from '../errorFields.ts';
import { useRefApi } from '../transport.ts';
import type { EntityBody } from '../types.ts';

export interface ServiceError {
  status?: number;
  errors: { code: string; message: string }[];
  errorReference?: string;
}

/** Reads the error body out of whatever the client threw. */
export function readServiceError(e: unknown): ServiceError {
  const any = e as Record<string, unknown> | null;
  const body = (any?.body ?? any) as Record<string, unknown> | null;
  const errors = (body?.errors ?? any?.errors) as ServiceError['errors'] | undefined;
  const status = (any?.status ?? any?.statusCode) as number | undefined;
  if (Array.isArray(errors) && errors.length > 0) {
    return {
      status,
      errors,
      errorReference: (body?.errorReference ?? any?.errorReference) as string | undefined,
    };
  }
  return { status, errors: [{ code: 'network', message: e instanceof Error ? e.message : String(e) }] };
}

export function serverMessage(
  t: TFunction,
  entity: ReferentialEntity,
  err: { code: string; message: string },
) {
  return t(errorMessageKey(entity, err.code), { ns: 'referentials', defaultValue: err.message });
}

/**
 * Marks the fields the errors belong to and returns the ones tied to no field.
 * `customFields` errors go to the editor's root error.
 */
export function applyServiceErrors<T extends FieldValues>(
  entity: ReferentialEntity,
  error: ServiceError,
  setError: UseFormSetError<T>,
  t: TFunction,
  knownFields: (path: string) => boolean = () => true,
): ServiceError['errors'] {
  const unmapped: ServiceError['errors'] = [];
  let first = true;
  for (const err of error.errors) {
    const field = fieldForError(entity, err);
    if (field && knownFields(field)) {
      const message = serverMessage(t, entity, err);
      if (field === 'customFields') {
        for (const code of customFieldCodesInMessage(err.message))
          setError(`customFields.${code}` as Path<T>, { type: 'server', message });
        setError('customFields.root' as Path<T>, { type: 'server', message });
      } else {
        setError(field as Path<T>, { type: 'server', message }, { shouldFocus: first });
        first = false;
      }
    } else unmapped.push(err);
  }
  return unmapped;
}

export function ServiceErrorAlert({
  entity,
  errors,
  errorReference,
  onClose,
}: {
  entity: ReferentialEntity;
  errors: ServiceError['errors'];
  errorReference?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('referentials');
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      title={t('form.errorTitle')}
      withCloseButton
      closeButtonLabel={t('form.cancel')}
      onClose={onClose}
      role="alert"
      data-testid="service-error"
    >
      {errors.length === 0 && <Text size="sm">{t('form.seeFields')}</Text>}
      <List size="sm" spacing={2}>
        {errors.map((e) => (
          <List.Item key={e.code}>
            {serverMessage(t, entity, e)}{' '}
            <Text span size="xs" c="dimmed" ff="monospace">
              ({e.code})
            </Text>
          </List.Item>
        ))}
      </List>
      {errorReference && (
        <Text size="xs" mt="xs" c="dimmed">
          {t('form.errorReference', { ref: errorReference })}
        </Text>
      )}
    </Alert>
  );
}

/**
 * Unsaved-changes guard: while the form is dirty, an in-app navigation (links, back button)
 * is held by the router's blocker and a dialog asks; closing or reloading the tab lets the
 * browser ask (beforeunload). `release()` lets the next navigation through (after a save).
 */
export function useUnsavedGuard(dirty: boolean) {
  const released = useRef(false);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !released.current,
    enableBeforeUnload: () => dirty && !released.current,
    withResolver: true,
  });
  return {
    blocker,
    release: () => {
      released.current = true;
    },
  };
}

/** The dialog of the unsaved-changes guard; "Stay" is focused first. */
export function UnsavedChangesDialog({
  blocker,
}: {
  blocker: ReturnType<typeof useUnsavedGuard>['blocker'];
}) {
  const { t } = useTranslation('referentials');
  const opened = blocker.status === 'blocked';
  return (
    <Modal
      opened={opened}
      onClose={() => blocker.reset?.()}
      title={t('form.leaveTitle')}
      closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
      centered
      data-testid="unsaved-dialog"
    >
      <Text size="sm">{t('form.leaveConfirm')}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {t('form.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()} data-testid="unsaved-leave">
          {t('form.leave')}
        </Button>
      </Group>
    </Modal>
  );
}

/**
 * Sends a write at once; on success shows a notification. For an update it offers Undo:
 * a compensating PUT of the previous version. A creation cannot be undone (the API has no
 * DELETE), which the notification says.
 */
export function useSaveWithUndo<E extends ReferentialEntity>(entity: E) {
  const { t } = useTranslation('referentials');
  const qc = useQueryClient();
  const refApi = useRefApi();
  const invalidate = (code: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: refKeys.record(entity, code) }),
      qc.invalidateQueries({ queryKey: refKeys.lists(entity) }),
      entity !== 'asset'
        ? qc.invalidateQueries({ queryKey: refKeys.lists(entity === 'customer' ? 'site' : 'asset') })
        : null,
    ]);
  /** Shared by every notification of a save: a named close button and readable text (AA contrast). */
  const look = {
    closeButtonProps: { 'aria-label': t('notify.close') },
    styles: { description: { color: 'var(--mantine-color-text)' } },
  };
  const entityLabel = t(`entity.${entity}`);
  const title = entityLabel.charAt(0).toUpperCase() + entityLabel.slice(1);

  return async (args: { code: string; body: EntityBody<E>; previous: EntityBody<E> | null }) => {
    const code = args.code.toUpperCase();
    const outcome = await refApi.put(entity, code, args.body);
    await invalidate(code);
    if (args.previous === null || outcome === 'created') {
      notifications.show({
        ...look,
        title: t('notify.createdTitle', { entity: title, code }),
        message: t('notify.createdNoUndo'),
        color: 'teal',
        autoClose: 8000,
        'data-testid': 'notify-created',
      });
      return outcome;
    }
    const previous = args.previous;
    const id = `undo-${entity}-${code}-${Date.now()}`;
    notifications.show({
      ...look,
      id,
      title: t('notify.savedTitle', { entity: title, code }),
      message: (
        <UndoMessage
          label={t('notify.undo')}
          body={t('notify.savedBody')}
          onUndo={async () => {
            notifications.update({
              ...look,
              id,
              loading: true,
              message: t('notify.undoing'),
              autoClose: false,
            });
            try {
              await refApi.put(entity, code, previous);
              await invalidate(code);
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
                title: t('notify.undoFailedTitle'),
                message: `${err.errors.map((x) => serverMessage(t, entity, x)).join(' ')}${err.errorReference ? ` (${err.errorReference})` : ''}`,
                autoClose: false,
              });
            }
          }}
        />
      ),
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

/** Scrolls the alert into view when it appears. */
export function useScrollIntoView(deps: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (deps) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [deps]);
  return ref;
}
