/**
 * The frame of every record form (create and edit pages of any feature): react-hook-form
 * resolved by the feature's schema, service errors on their fields (or in an alert with
 * the errorReference), the unsaved-changes guard, the save + Undo flow, the same footer.
 *
 * Lost updates: an edit sends the version it was opened on (If-Match with the record's
 * ETag). When the record changed since (412), a dialog offers to reload it (the changes
 * made here are dropped) or to overwrite it (the write is sent again unconditionally).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  FormProvider,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RecordChangedNotice, useRecordChanged } from '../../shared/live/RecordChangedNotice.tsx';
import { ServiceErrorAlert } from './ServiceErrorAlert.tsx';
import { StickyFormActions } from './StickyFormActions.tsx';
import {
  readServiceError,
  type ServiceError,
  type ServiceErrorItem,
  serviceErrorForForm,
} from './serviceErrors.ts';
import { UnsavedChangesDialog, useUnsavedGuard } from './unsavedGuard.tsx';
import { type PutRecord, useSaveWithUndo } from './useSaveWithUndo.tsx';
import { useScrollIntoView } from './useScrollIntoView.ts';

export interface RecordFormProps<F extends FieldValues, B> {
  /** The record's code when editing; undefined when creating. */
  code?: string;
  defaults: F;
  resolver: Resolver<F>;
  /** The version being edited, as a PUT body (written back by Undo); null when creating. */
  previous: B | null;
  /** The ETag of the version being edited (If-Match); null when creating or unknown. */
  etag: string | null;
  put: PutRecord<B>;
  /** Whether a record with this code exists already (creating: PUT would overwrite it). */
  exists: (code: string) => Promise<boolean>;
  invalidate: (code: string) => Promise<unknown>;
  /** The translated noun ("Customer", "Item") of notifications and messages. */
  entity: string;
  /** The message when the code of a new record is taken. */
  existsMessage: (code: string) => string;
  /** Translated text of a service error. */
  explain: (err: ServiceErrorItem) => string;
  /** The form field (or fields) a service error belongs to, null for the alert. */
  fieldFor: (err: ServiceErrorItem) => string | readonly string[] | null;
  /** After a successful save (e.g. go to the record's page). */
  onSaved: (code: string) => Promise<unknown> | unknown;
  onCancel: () => void;
  /** Reloads the record (after a conflict, "Reload"): the page shows the new version. */
  onReload: () => Promise<unknown>;
  /** Accessible name of the form. */
  label: string;
  /**
   * The record's kind in the change log (`customer`, `item`...): while editing, a change by
   * someone else shows "changed by X just now" with a reload choice (shared/live).
   */
  changeKind?: string;
  children: ReactNode;
}

/**
 * What saving the form goes through: the existence check of a new code, the write with
 * If-Match, service errors (on their fields or in the alert) and the 412 conflict's two
 * ways out (reload or overwrite).
 */
function useRecordFormSave<F extends FieldValues, B>(form: UseFormReturn<F>, props: RecordFormProps<F, B>) {
  const { code, previous, etag } = props;
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const [conflict, setConflict] = useState<{ code: string; body: B } | null>(null);
  const [resolving, setResolving] = useState<Resolving>(null);
  const alertRef = useScrollIntoView(alert);
  const guard = useUnsavedGuard(form.formState.isDirty);
  const save = useSaveWithUndo<B>({
    put: props.put,
    invalidate: props.invalidate,
    entity: props.entity,
    explain: props.explain,
  });
  const creating = code === undefined;

  const fail = (e: unknown) =>
    setAlert(
      serviceErrorForForm(e, { fieldFor: props.fieldFor, message: props.explain, setError: form.setError }),
    );

  const write = async (target: string, body: B, ifMatch: string | null) => {
    await save({ code: target, body, previous, ifMatch });
    guard.release();
    await props.onSaved(target);
  };

  const onValid = async (parsed: unknown) => {
    setAlert(null);
    const { code: target, ...rest } = parsed as { code: string } & Record<string, unknown>;
    const body = rest as B;
    try {
      if (creating && (await props.exists(target))) {
        // PUT creates or updates: refuse to overwrite a record that already exists.
        form.setError(
          'code' as Path<F>,
          { type: 'server', message: props.existsMessage(target) },
          { shouldFocus: true },
        );
        return;
      }
      await write(target, body, creating ? null : etag);
    } catch (e) {
      if (readServiceError(e).status === 412) setConflict({ code: target, body });
      else fail(e);
    }
  };

  const reload = async () => {
    setResolving('reload');
    guard.release();
    try {
      await props.onReload();
    } finally {
      setResolving(null);
      setConflict(null);
    }
  };
  const overwrite = async () => {
    if (!conflict) return;
    setResolving('overwrite');
    try {
      await write(conflict.code, conflict.body, null);
    } catch (e) {
      fail(e);
    } finally {
      setResolving(null);
      setConflict(null);
    }
  };

  const clearAlert = () => setAlert(null);
  const closeConflict = () => setConflict(null);
  return {
    creating,
    alert,
    alertRef,
    clearAlert,
    guard,
    conflict,
    closeConflict,
    resolving,
    onValid,
    reload,
    overwrite,
  };
}

export function RecordForm<F extends FieldValues, B>(props: RecordFormProps<F, B>) {
  const { t } = useTranslation('common');
  const form = useForm<F>({
    defaultValues: props.defaults as DefaultValues<F>,
    resolver: props.resolver,
    mode: 'onTouched',
  });
  const saving = useRecordFormSave(form, props);
  const changed = useRecordChanged(props.changeKind, props.code);

  const hasFieldErrors = Object.keys(form.formState.errors).length > 0;
  return (
    <FormProvider {...form}>
      <UnsavedChangesDialog blocker={saving.guard.blocker} />
      <ConflictDialog
        conflictCode={saving.conflict?.code}
        code={props.code}
        entity={props.entity}
        resolving={saving.resolving}
        onKeepEditing={saving.closeConflict}
        onReload={() => void saving.reload()}
        onOverwrite={() => void saving.overwrite()}
      />
      {/* A later submit refused by the form's own checks clears the service's earlier refusal. */}
      <form
        noValidate
        onSubmit={form.handleSubmit(saving.onValid, saving.clearAlert)}
        aria-label={props.label}
      >
        <Stack gap="md">
          {saving.alert && (saving.alert.errors.length > 0 || saving.alert.errorReference) && (
            <div ref={saving.alertRef}>
              <ServiceErrorAlert
                errors={saving.alert.errors}
                errorReference={saving.alert.errorReference}
                explain={props.explain}
                title={t('form.errorTitle')}
                closeLabel={t('form.close')}
                emptyHint={t('form.seeFields')}
                onClose={saving.clearAlert}
              />
            </div>
          )}
          {changed.entry && (
            <RecordChangedNotice
              entry={changed.entry}
              reloading={saving.resolving === 'reload'}
              onReload={() => void saving.reload()}
              onDismiss={changed.dismiss}
            />
          )}
          {props.children}
          <StickyFormActions
            hasErrors={hasFieldErrors}
            requiredHint={t('form.required')}
            errorsHint={t('form.fixErrors')}
            cancelLabel={t('form.cancel')}
            onCancel={props.onCancel}
            submitLabel={saving.creating ? t('form.create') : t('form.save')}
            submitting={form.formState.isSubmitting}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}

/** Which way out of a conflict is under way. */
type Resolving = 'reload' | 'overwrite' | null;

/** The record changed since it was opened (412): keep editing, reload it or overwrite it. */
function ConflictDialog({
  conflictCode,
  code,
  entity,
  resolving,
  onKeepEditing,
  onReload,
  onOverwrite,
}: {
  /** The code of the refused write; undefined when there is no conflict (closed). */
  conflictCode: string | undefined;
  code: string | undefined;
  entity: string;
  resolving: Resolving;
  onKeepEditing: () => void;
  onReload: () => void;
  onOverwrite: () => void;
}) {
  const { t } = useTranslation('common');
  return (
    <Modal
      opened={conflictCode !== undefined}
      onClose={onKeepEditing}
      title={t('conflict.title')}
      closeButtonProps={{ 'aria-label': t('conflict.close') }}
      centered
      data-testid="conflict-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t('conflict.body', { entity, code: conflictCode ?? code })}</Text>
        <Text size="sm" c="dimmed">
          {t('conflict.choice')}
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onKeepEditing} disabled={resolving !== null}>
          {t('conflict.keepEditing')}
        </Button>
        <Button
          variant="light"
          onClick={onReload}
          loading={resolving === 'reload'}
          disabled={resolving === 'overwrite'}
          data-autofocus
          data-testid="conflict-reload"
        >
          {t('conflict.reload')}
        </Button>
        <Button
          color="red"
          onClick={onOverwrite}
          loading={resolving === 'overwrite'}
          disabled={resolving === 'reload'}
          data-testid="conflict-overwrite"
        >
          {t('conflict.overwrite')}
        </Button>
      </Group>
    </Modal>
  );
}
