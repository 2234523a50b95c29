import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useMemo, useState } from 'react';
import { type FieldValues, FormProvider, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import {
  readServiceError,
  type ServiceError,
  ServiceErrorAlert,
  StickyFormActions,
  serviceErrorForForm,
  UnsavedChangesDialog,
  useSaveWithUndo,
  useScrollIntoView,
  useUnsavedGuard,
  zodErrorMap,
} from '../../../components/forms/index.ts';
import { useInvalidateAfterWrite } from '../api.ts';
import { fieldsForError, serviceErrorText } from '../errorFields.ts';
import { detailPath } from '../paths.ts';
import { useRefApi } from '../transport.ts';
import type { EntityBody, ReferentialEntity } from '../types.ts';

interface RecordFormProps<E extends ReferentialEntity, F extends FieldValues> {
  entity: E;
  /** The record's code when editing; undefined when creating. */
  code?: string;
  defaults: F;
  /** The version being edited, as a PUT body (written back by Undo); null when creating. */
  previous: EntityBody<E> | null;
  definitions: readonly CustomFieldDefinition[];
  /** The form schema, given the definitions and the version being edited. */
  schema: (defs: readonly CustomFieldDefinition[], previous: Record<string, unknown> | null) => z.ZodType;
  children: ReactNode;
  onCancel: () => void;
}

/**
 * Frame of the create and edit forms: react-hook-form resolved by the contract schema,
 * service errors on their fields (or in an Alert), the unsaved-changes guard, and the
 * save + Undo flow.
 */
export function RecordForm<E extends ReferentialEntity, F extends FieldValues>(props: RecordFormProps<E, F>) {
  const { entity, code, defaults, previous, definitions, schema, children, onCancel } = props;
  const { t } = useTranslation('referentials');
  const navigate = useNavigate();
  const refApi = useRefApi();
  const resolver = useMemo(
    () =>
      zodResolver(
        schema(definitions, previous as Record<string, unknown> | null) as never,
        { error: zodErrorMap(t) } as never,
      ) as unknown as Resolver<F>,
    [schema, definitions, previous, t],
  );
  const form = useForm<F>({ defaultValues: defaults as never, resolver, mode: 'onTouched' });
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const alertRef = useScrollIntoView(alert);
  const guard = useUnsavedGuard(form.formState.isDirty);
  const invalidate = useInvalidateAfterWrite();
  const explain = (err: { code: string; message: string }) => serviceErrorText(t, entity, err);
  const entityLabel = t(`entity.${entity}`);
  const save = useSaveWithUndo<EntityBody<E>>({
    put: (c, body) => refApi.put(entity, c, body),
    invalidate: (c) => invalidate(entity, c),
    ns: 'referentials',
    entity: entityLabel.charAt(0).toUpperCase() + entityLabel.slice(1),
    explain,
  });
  const creating = code === undefined;

  const onValid = async (parsed: unknown) => {
    setAlert(null);
    const { code: target, ...body } = parsed as { code: string } & Record<string, unknown>;
    try {
      if (creating) {
        // PUT creates or updates: refuse to overwrite a record that already exists.
        const exists = await refApi.get(entity, target).then(
          () => true,
          (e) => (readServiceError(e).status === 404 ? false : Promise.reject(e)),
        );
        if (exists) {
          form.setError(
            'code' as never,
            { type: 'server', message: t('form.exists', { entity: t(`entity.${entity}`), code: target }) },
            { shouldFocus: true },
          );
          return;
        }
      }
      await save({ code: target, body: body as unknown as EntityBody<E>, previous });
      guard.release();
      await navigate({ to: detailPath(entity, target) as never });
    } catch (e) {
      setAlert(
        serviceErrorForForm(e, {
          fieldFor: (err) => fieldsForError(entity, err),
          message: explain,
          setError: form.setError,
        }),
      );
    }
  };

  const hasFieldErrors = Object.keys(form.formState.errors).length > 0;
  return (
    <FormProvider {...form}>
      <UnsavedChangesDialog blocker={guard.blocker} />
      <form
        noValidate
        onSubmit={form.handleSubmit(onValid as never)}
        aria-label={
          creating ? t(`${entity}s.newTitle` as never) : t(`${entity}s.editTitle` as never, { code })
        }
      >
        <Stack gap="md">
          {alert && (alert.errors.length > 0 || alert.errorReference) && (
            <div ref={alertRef}>
              <ServiceErrorAlert
                errors={alert.errors}
                errorReference={alert.errorReference}
                explain={explain}
                title={t('form.errorTitle')}
                closeLabel={t('form.cancel')}
                emptyHint={t('form.seeFields')}
                onClose={() => setAlert(null)}
              />
            </div>
          )}
          {children}
          <StickyFormActions
            hasErrors={hasFieldErrors}
            requiredHint={t('form.required')}
            errorsHint={t('form.fixErrors')}
            cancelLabel={t('form.cancel')}
            onCancel={onCancel}
            submitLabel={creating ? t('form.create') : t('form.save')}
            submitting={form.formState.isSubmitting}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}
