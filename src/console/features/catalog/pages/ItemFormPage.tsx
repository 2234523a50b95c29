/**
 * Create (`/catalog/items/new`, optionally `?duplicateOf=CODE`) and edit (`/catalog/items/$code`)
 * page of an item. The form waits for the record and the custom-field definitions so that
 * its default values are final (the unsaved-changes guard compares with them).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconCopy } from '@tabler/icons-react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition } from '../../../../contract/common.ts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import {
  applyServiceErrors,
  readServiceError,
  ServiceAlert,
  type ServiceError,
  UnsavedChangesDialog,
  useSaveWithUndo,
  useScrollIntoView,
  useUnsavedGuard,
} from '../components/formKit.tsx';
import { ItemFields } from '../components/ItemFields.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { itemFieldForError } from '../errorFields.ts';
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
  const save = useSaveWithUndo<ItemBody>({
    put: (c, body) => api.putItem(c, body),
    invalidate: (c) => invalidate(c),
    label: t('item.entity'),
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
      const err = readServiceError(e);
      const unmapped = applyServiceErrors(err, itemFieldForError, form.setError, t);
      if (unmapped.length > 0 || err.errorReference) setAlert({ ...err, errors: unmapped });
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
              <ServiceAlert error={alert} onClose={() => setAlert(null)} />
            )}
          </div>
          <ItemFields creating={creating} categories={categories} definitions={definitions} />
          <Paper
            withBorder
            p="sm"
            radius="md"
            pos="sticky"
            bottom={0}
            style={{ zIndex: 5, background: 'var(--mantine-color-body)' }}
          >
            <Group justify="space-between">
              <Text size="xs" c={hasErrors ? 'red' : 'dimmed'}>
                {hasErrors ? t('form.fixErrors') : t('form.required')}
              </Text>
              <Group gap="sm">
                <Button variant="default" onClick={() => navigate({ to: ITEMS_PATH as never })}>
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
      <UnsavedChangesDialog blocker={guard.blocker} />
    </FormProvider>
  );
}
