/**
 * Create (`/catalog/items/new`, optionally `?duplicateOf=CODE`) and edit (`/catalog/items/$code`)
 * page of an item. The form waits for the record and the custom-field definitions so that
 * its default values are final (the unsaved-changes guard compares with them).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack } from '@mantine/core';
import { IconArrowLeft, IconCopy } from '@tabler/icons-react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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
} from '../../../components/forms/index.ts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { ItemFields } from '../components/ItemFields.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { itemFieldForError, serviceErrorText } from '../errorFields.ts';
import { catalogErrorMap } from '../formErrors.ts';
import { type ItemForm, itemFormSchema, itemToForm } from '../itemForm.ts';
import { type Item, type ItemBody, itemToBody } from '../model.ts';
import { ITEMS_PATH, itemPath, NEW_ITEM_PATH } from '../paths.ts';
import {
  useCatalogApi,
  useInvalidateItem,
  useItem,
  useItemCategories,
  useItemDefinitions,
} from '../queries.ts';

export function ItemFormPage({ code, duplicateOf }: { code?: string; duplicateOf?: string }) {
  const { t, i18n } = useTranslation('catalog');
  const search = useSearch({ strict: false }) as { duplicateOf?: unknown };
  const copyOf =
    code === undefined
      ? (duplicateOf ?? (typeof search.duplicateOf === 'string' ? search.duplicateOf : undefined))
      : undefined;
  const creating = code === undefined;
  const source = creating ? copyOf : code;
  const record = useItem(source);
  const defs = useItemDefinitions();
  const categories = useItemCategories();

  const title = creating
    ? copyOf
      ? t('item.duplicateTitle', { code: copyOf.toUpperCase() })
      : t('item.newTitle')
    : t('item.editTitle', { code: code.toUpperCase() });
  const back = (
    <Anchor component={Link} to={ITEMS_PATH} size="sm" w="fit-content">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('items.title')}
      </Group>
    </Anchor>
  );

  if ((source && record.isPending) || defs.isPending) {
    return (
      <Stack gap="md" aria-busy>
        {back}
        <PageHeader title={title} />
        <LoadingState rows={8} label={t('items.loading')} />
      </Stack>
    );
  }
  if (source && (record.isError || !record.data)) {
    return (
      <Stack gap="md">
        {back}
        <PageHeader title={title} />
        {readServiceError(record.error).status === 404 ? (
          <EmptyState
            title={t('item.notFoundTitle')}
            body={t('item.notFound', { code: source.toUpperCase() })}
            action={
              <Button component={Link} to={ITEMS_PATH} variant="default">
                {t('item.backToList')}
              </Button>
            }
          />
        ) : (
          <ErrorState error={record.error} onRetry={() => record.refetch()} />
        )}
      </Stack>
    );
  }
  // Without the definitions extension the editor still shows (and keeps) stored values.
  const definitions = defs.data ?? [];
  const item = record.data ?? null;
  return (
    <Stack gap="md">
      {back}
      <PageHeader
        title={title}
        badge={
          !creating && item ? (
            <StatusBadge color={item.active === false ? 'gray' : 'teal'}>
              {item.active === false ? t('items.inactive') : t('items.active')}
            </StatusBadge>
          ) : undefined
        }
        subtitle={
          !creating && item?.lastUpdate
            ? t('item.lastUpdate', {
                date: new Date(item.lastUpdate).toLocaleString(i18n.resolvedLanguage, {
                  dateStyle: 'medium',
                  timeStyle: 'short',
                }),
              })
            : creating && copyOf
              ? t('item.duplicateHint')
              : undefined
        }
        actions={
          !creating ? (
            <Button
              component={Link}
              to={NEW_ITEM_PATH}
              search={{ duplicateOf: code.toUpperCase() } as never}
              variant="default"
              leftSection={<IconCopy size={16} />}
              data-testid="duplicate"
            >
              {t('item.duplicate')}
            </Button>
          ) : undefined
        }
      />
      <ItemEditor
        // A new version of the record (saved, undone) starts a fresh form.
        key={`${source ?? 'new'}:${item?.lastUpdate ?? ''}:${creating}`}
        code={creating ? undefined : code.toUpperCase()}
        item={item}
        copy={creating && !!copyOf}
        definitions={definitions}
        categories={categories.data ?? []}
      />
    </Stack>
  );
}

function ItemEditor({
  code,
  item,
  copy,
  definitions,
  categories,
}: {
  code?: string;
  item: Item | null;
  copy: boolean;
  definitions: readonly CustomFieldDefinition[];
  categories: readonly string[];
}) {
  const { t } = useTranslation('catalog');
  const navigate = useNavigate();
  const api = useCatalogApi();
  const invalidate = useInvalidateItem();
  const creating = code === undefined;
  const defaults = useMemo(() => itemToForm(item, definitions, { copy }), [item, definitions, copy]);
  const resolver = useMemo(
    () =>
      zodResolver(
        itemFormSchema(definitions) as never,
        { error: catalogErrorMap(t) } as never,
      ) as unknown as Resolver<ItemForm>,
    [definitions, t],
  );
  const form = useForm<ItemForm>({ defaultValues: defaults, resolver, mode: 'onTouched' });
  const [alert, setAlert] = useState<ServiceError | null>(null);
  const alertRef = useScrollIntoView(alert);
  const guard = useUnsavedGuard(form.formState.isDirty);
  const explain = (e: { code: string; message: string }) => serviceErrorText(t, e);
  const save = useSaveWithUndo<ItemBody>({
    put: (c, body) => api.putItem(c, body),
    invalidate: (c) => invalidate(c),
    ns: 'catalog',
    entity: t('item.entity'),
    explain,
  });

  const onValid = async (parsed: unknown) => {
    setAlert(null);
    const { code: target, ...body } = parsed as { code: string } & ItemBody;
    try {
      if (creating) {
        // PUT creates or updates: refuse to overwrite an item that already exists.
        const existing = await api.findItem(target);
        if (existing) {
          form.setError(
            'code',
            { type: 'server', message: t('item.exists', { code: target }) },
            { shouldFocus: true },
          );
          return;
        }
      }
      await save({ code: target, body, previous: item && !creating ? itemToBody(item) : null });
      guard.release();
      if (creating) await navigate({ to: itemPath(target) as never });
    } catch (e) {
      setAlert(
        serviceErrorForForm(e, { fieldFor: itemFieldForError, message: explain, setError: form.setError }),
      );
    }
  };

  const hasErrors = Object.keys(form.formState.errors).length > 0;
  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={form.handleSubmit(onValid as never)}
        aria-label={creating ? t('item.newTitle') : t('item.editTitle', { code })}
      >
        <Stack gap="md">
          <div ref={alertRef}>
            {alert && (alert.errors.length > 0 || alert.errorReference) && (
              <ServiceErrorAlert
                errors={alert.errors}
                errorReference={alert.errorReference}
                explain={explain}
                title={t('form.errorTitle')}
                closeLabel={t('form.close')}
                onClose={() => setAlert(null)}
              />
            )}
          </div>
          <ItemFields creating={creating} categories={categories} definitions={definitions} />
          <StickyFormActions
            hasErrors={hasErrors}
            requiredHint={t('form.required')}
            errorsHint={t('form.fixErrors')}
            cancelLabel={t('form.cancel')}
            onCancel={() => navigate({ to: ITEMS_PATH as never })}
            submitLabel={creating ? t('form.create') : t('form.save')}
            submitting={form.formState.isSubmitting}
          />
        </Stack>
      </form>
      <UnsavedChangesDialog blocker={guard.blocker} />
    </FormProvider>
  );
}
