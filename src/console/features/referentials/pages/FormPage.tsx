import { Skeleton, Stack } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useMemo } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CanPage } from '../../../app/Can.tsx';
import { initialCustomFields } from '../../../components/customFields/customFieldValues.ts';
import { formResolver } from '../../../components/forms/formResolver.ts';
import { RecordForm, readServiceError, zodErrorMap } from '../../../components/forms/index.ts';
import { EmptyState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink } from '../../../components/links.tsx';
import { BackLabel } from '../../../components/records/RecordParts.tsx';
import { useChildren, useDefinitions, useInvalidateAfterWrite, useRecord } from '../api.ts';
import { fieldsForError, serviceErrorText } from '../errorFields.ts';
import { refForm } from '../forms.tsx';
import { type ReferentialEntity, referentialPaths } from '../paths.ts';
import { refResource } from '../resources.tsx';
import type { NewRecordSearch } from '../search.ts';
import { useRefApi, writeRow } from '../transport.ts';

export function CreatePage({ entity }: { entity: ReferentialEntity }) {
  const presets = getRouteApi(referentialPaths[entity].new).useSearch();
  return <FormPage entity={entity} presets={presets} />;
}

export function EditPage({ entity }: { entity: ReferentialEntity }) {
  const { code } = getRouteApi(referentialPaths[entity].edit).useParams();
  return <FormPage key={code} entity={entity} code={code} />;
}

function FormPage({
  entity,
  code,
  presets = {},
}: {
  entity: ReferentialEntity;
  code?: string;
  presets?: NewRecordSearch;
}) {
  const { t } = useTranslation('referentials');
  const navigate = useNavigate();
  const refApi = useRefApi();
  const invalidate = useInvalidateAfterWrite();
  const paths = referentialPaths[entity];
  const res = refResource(entity);
  const form = refForm(entity);
  const g = res.group;
  const creating = code === undefined;
  const record = useRecord(entity, code);
  const defs = useDefinitions(entity);
  const children = useChildren(entity, form.needsChildCount && !creating ? code : undefined);
  const entityLabel = t(`entity.${entity}`);
  const explain = (err: { code: string; message: string }) => serviceErrorText(t, entity, err);
  const upper = code?.toUpperCase();

  const back = creating ? (
    <AnchorLink to={paths.list} size="sm">
      <BackLabel>{t(`${g}.title`)}</BackLabel>
    </AnchorLink>
  ) : (
    <AnchorLink to={paths.detail} params={{ code }} size="sm">
      <BackLabel>{upper}</BackLabel>
    </AnchorLink>
  );
  const frame = (body: ReactNode) => (
    <Stack gap="md">
      <Stack gap="xs">
        <div>{back}</div>
        <PageHeader title={creating ? t(`${g}.newTitle`) : t(`${g}.editTitle`, { code: upper })} />
      </Stack>
      {body}
    </Stack>
  );

  const definitions = defs.data;
  const versioned = record.data;
  const resolver = useMemo(() => {
    const previous = versioned ? form.toBody(versioned.record) : null;
    return formResolver<FieldValues>(form.schema(definitions ?? [], previous), zodErrorMap(t));
  }, [form, definitions, versioned, t]);

  const formSkeleton = (
    <Stack gap="md" aria-busy>
      <Skeleton height={220} radius="md" />
      <Skeleton height={160} radius="md" />
    </Stack>
  );
  if (defs.isPending) return frame(formSkeleton);
  if (!creating && !versioned)
    return frame(
      <QueryView
        query={record}
        loading={formSkeleton}
        notFound={
          <EmptyState
            title={t('common:record.notFoundTitle')}
            body={t('detail.notFound', { entity: entityLabel, code: upper })}
          />
        }
      >
        {() => null}
      </QueryView>,
    );
  // Without the definitions extension the editor still shows (and keeps) stored values.
  const defsList = definitions ?? [];
  const rec = versioned?.record ?? null;
  const defaults = form.toForm(rec);
  if (creating) {
    for (const [key, field] of Object.entries(form.presets) as [keyof NewRecordSearch, string][]) {
      const v = presets[key];
      if (v) Object.assign(defaults, { [field]: v });
    }
    defaults.customFields = initialCustomFields(defsList, defaults.customFields);
  }
  const Fields = form.Fields;

  return frame(
    <CanPage call={writeRow[entity]}>
      <RecordForm
        // A new version of the record (saved elsewhere and reloaded) starts a fresh form.
        key={`${upper ?? 'new'}:${versioned?.etag ?? rec?.lastUpdate ?? ''}`}
        code={upper}
        defaults={defaults}
        resolver={resolver}
        previous={rec ? form.toBody(rec) : null}
        etag={versioned?.etag ?? null}
        put={(c, body, opts) => refApi.put(entity, c, body, opts)}
        exists={(c) =>
          refApi.get(entity, c).then(
            () => true,
            (e) => (readServiceError(e).status === 404 ? false : Promise.reject(e)),
          )
        }
        invalidate={(c) => invalidate(entity, c)}
        entity={entityLabel.charAt(0).toUpperCase() + entityLabel.slice(1)}
        existsMessage={(c) => t('form.exists', { entity: entityLabel, code: c })}
        explain={explain}
        fieldFor={(err) => fieldsForError(entity, err)}
        onSaved={(c) => navigate({ to: paths.detail, params: { code: c } })}
        onCancel={() =>
          void (creating
            ? navigate({ to: paths.list })
            : navigate({ to: paths.detail, params: { code: upper ?? '' } }))
        }
        onReload={() => record.refetch()}
        changeKind={entity}
        label={creating ? t(`${g}.newTitle`) : t(`${g}.editTitle`, { code: upper })}
      >
        <Fields creating={creating} self={upper} definitions={defsList} childCount={children.data?.length} />
      </RecordForm>
    </CanPage>,
  );
}
