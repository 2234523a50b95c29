import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useMemo, useState } from 'react';
import { type FieldValues, FormProvider, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import { zodErrorMap } from '../formErrors.ts';
import './contrast.css';
import { detailPath } from '../paths.ts';
import { useRefApi } from '../transport.ts';
import type { EntityBody, ReferentialEntity } from '../types.ts';
import {
  applyServiceErrors,
  readServiceError,
  type ServiceError,
  ServiceErrorAlert,
  UnsavedChangesDialog,
  useSaveWithUndo,
  useScrollIntoView,
  useUnsavedGuard,
} from './formKit.tsx';

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
  const save = useSaveWithUndo(entity);
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
      const err = readServiceError(e);
      const unmapped = applyServiceErrors(entity, err, form.setError, t);
      if (unmapped.length > 0) setAlert({ ...err, errors: unmapped });
      else if (err.errorReference) setAlert({ ...err, errors: [] });
    }
  };

  const hasFieldErrors = Object.keys(form.formState.errors).length > 0;
  return (
    <FormProvider {...form}>
      <UnsavedChangesDialog blocker={guard.blocker} />
      <form
        className="fw-record-form"
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
                entity={entity}
                errors={alert.errors}
                errorReference={alert.errorReference}
                onClose={() => setAlert(null)}
              />
            </div>
          )}
          {children}
          <Paper
            withBorder
            p="sm"
            radius="md"
            pos="sticky"
            bottom={0}
            style={{ zIndex: 5, background: 'var(--mantine-color-body)' }}
          >
            <Group justify="space-between">
              <Text size="xs" c={hasFieldErrors ? 'red' : 'dimmed'}>
                {hasFieldErrors ? t('form.fixErrors') : t('form.required')}
              </Text>
              <Group gap="sm">
                <Button variant="default" onClick={onCancel}>
                  {t('form.cancel')}
                </Button>
                <Button type="submit" loading={form.formState.isSubmitting} data-testid="save">
                  {creating ? t('form.create') : t('form.save')}
                </Button>
              </Group>
            </Group>
          </Paper>
        </Stack>
      </form>
    </FormProvider>
  );
}
