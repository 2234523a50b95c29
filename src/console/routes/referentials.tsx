/**
 * The Referentials pages bound to their routes (one lazily loaded chunk): URL search and
 * params in, navigation out. The pages live in features/referentials.
 */
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { DetailPage } from '../features/referentials/pages/DetailPage.tsx';
import { FormPage } from '../features/referentials/pages/FormPage.tsx';
import { ListPage, parseListSearch } from '../features/referentials/pages/ListPage.tsx';
import { listPath } from '../features/referentials/paths.ts';
import type { ReferentialEntity } from '../features/referentials/types.ts';
import type { NewRecordSearch } from './search.ts';

function List({ entity }: { entity: ReferentialEntity }) {
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  return (
    <ListPage
      entity={entity}
      search={parseListSearch(raw)}
      onSearchChange={(next) => void navigate({ to: listPath(entity), search: next as never, replace: true })}
    />
  );
}

function Detail({ entity }: { entity: ReferentialEntity }) {
  const { code } = useParams({ strict: false }) as { code: string };
  return <DetailPage key={code} entity={entity} code={code} />;
}

function Create({ entity }: { entity: ReferentialEntity }) {
  const presets = useSearch({ strict: false }) as NewRecordSearch;
  return <FormPage entity={entity} presets={presets} />;
}

function Edit({ entity }: { entity: ReferentialEntity }) {
  const { code } = useParams({ strict: false }) as { code: string };
  return <FormPage key={code} entity={entity} code={code} />;
}

export const CustomersList = () => <List entity="customer" />;
export const CustomerDetail = () => <Detail entity="customer" />;
export const CustomerNew = () => <Create entity="customer" />;
export const CustomerEdit = () => <Edit entity="customer" />;
export const SitesList = () => <List entity="site" />;
export const SiteDetail = () => <Detail entity="site" />;
export const SiteNew = () => <Create entity="site" />;
export const SiteEdit = () => <Edit entity="site" />;
export const AssetsList = () => <List entity="asset" />;
export const AssetDetail = () => <Detail entity="asset" />;
export const AssetNew = () => <Create entity="asset" />;
export const AssetEdit = () => <Edit entity="asset" />;
