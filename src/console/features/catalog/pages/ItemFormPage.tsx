import { Stack } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CanPage } from '../../../app/Can.tsx';
import { formResolver } from '../../../components/forms/formResolver.ts';
import { RecordForm } from '../../../components/forms/index.ts';
import { LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { BackLabel } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { ItemFields } from '../components/ItemFields.tsx';
import { itemFieldForError, serviceErrorText } from '../errorFields.ts';
import { catalogErrorMap } from '../formErrors.ts';
import { type ItemForm, itemFormSchema, itemToForm } from '../itemForm.ts';
import { itemToBody } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import {
  useCatalogApi,
  useInvalidateItem,
  useItem,
  useItemCategories,
  useItemDefinitions,
} from '../queries.ts';
import { writeRows } from '../transport.ts';

const newRoute = getRouteApi(paths.item.new);
const editRoute = getRouteApi(paths.item.edit);

export function ItemCreatePage() {
  const { duplicateOf } = newRoute.useSearch();
  return <ItemFormPage key={duplicateOf ?? 'new'} copyOf={duplicateOf} />;
}

export function ItemEditPage() {
  const { code } = editRoute.useParams();
  return <ItemFormPage key={code} code={code.toUpperCase()} />;
}

function ItemFormPage({ code, copyOf }: { code?: string; copyOf?: string }) {
  const { t } = useTranslation('catalog');
  const navigate = useNavigate();
  const api = useCatalogApi();
  const invalidate = useInvalidateItem();
  const creating = code === undefined;
  const source = creating ? copyOf : code;
  const record = useItem(source);
  const defs = useItemDefinitions();
  const categories = useItemCategories();
  const definitions = defs.data;
  const resolver = useMemo(
    () => formResolver<ItemForm>(itemFormSchema(definitions ?? []), catalogErrorMap(t)),
    [definitions, t],
  );

  const title = creating
    ? copyOf
      ? t('item.duplicateTitle', { code: copyOf })
      : t('item.newTitle')
    : t('item.editTitle', { code });
  const back = creating ? (
    <AnchorLink to={paths.item.list} size="sm">
      <BackLabel>{t('items.title')}</BackLabel>
    </AnchorLink>
  ) : (
    <AnchorLink to={paths.item.detail} params={{ code }} size="sm">
      <BackLabel>{code}</BackLabel>
    </AnchorLink>
  );
  const frame = (body: ReactNode) => (
    <Stack gap="md">
      <Stack gap="xs">
        <div>{back}</div>
        <PageHeader title={title} subtitle={creating && copyOf ? t('item.duplicateHint') : undefined} />
      </Stack>
      {body}
    </Stack>
  );

  if (defs.isPending) return frame(<LoadingState rows={8} label={t('items.loading')} />);
  if (source && !record.data)
    return frame(
      <QueryView
        query={record}
        loadingRows={8}
        loadingLabel={t('items.loading')}
        notFound={
          <RecordNotFound
            body={t('item.notFound', { code: source })}
            back={(label) => (
              <ButtonLink to={paths.item.list} variant="default">
                {label}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>,
    );
  // Without the definitions extension the editor still shows (and keeps) stored values.
  const defsList = definitions ?? [];
  const item = record.data?.record ?? null;
  const etag = creating ? null : (record.data?.etag ?? null);

  return frame(
    <CanPage call={writeRows.item}>
      <RecordForm
        // A new version of the record (saved elsewhere and reloaded) starts a fresh form.
        key={`${source ?? 'new'}:${etag ?? item?.lastUpdate ?? ''}:${creating}`}
        code={code}
        defaults={itemToForm(item, defsList, { copy: creating && !!copyOf })}
        resolver={resolver}
        previous={item && !creating ? itemToBody(item) : null}
        etag={etag}
        put={(c, body, opts) => api.putItem(c, body, opts)}
        exists={async (c) => (await api.findItem(c)) !== null}
        invalidate={(c) => invalidate(c)}
        entity={t('item.entity')}
        existsMessage={(c) => t('item.exists', { code: c })}
        explain={(e) => serviceErrorText(t, e)}
        fieldFor={itemFieldForError}
        onSaved={(c) => navigate({ to: paths.item.detail, params: { code: c } })}
        onCancel={() =>
          void (creating
            ? navigate({ to: paths.item.list })
            : navigate({ to: paths.item.detail, params: { code } }))
        }
        onReload={() => record.refetch()}
        changeKind="item"
        label={title}
      >
        <ItemFields creating={creating} categories={categories.data ?? []} definitions={defsList} />
      </RecordForm>
    </CanPage>,
  );
}
