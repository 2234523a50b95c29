/**
 * `/workorders`: the work orders of the caller's office tree, by code, over the keyset pages
 * of the list extension (virtualized, the next page read as the end comes near). Search by
 * code prefix (a uuid typed there opens that work order), filters status (several), type,
 * office and technician; every filter lives in the URL.
 */
import { MultiSelect, Select, TextInput } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState } from '../../../components/layout/index.ts';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList, type ListPartProps } from '../../../components/lists/resourceList.ts';
import { serviceErrorText } from '../components/ConfirmAction.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { WorkOrderLink } from '../components/WorkOrderLink.tsx';
import { utcMinute } from '../model.ts';
import { workordersPaths as paths } from '../paths.ts';
import { noRetry4xx, useWorkOrderTypes, workordersKeys } from '../queries.ts';
import { isUuid, parseStatuses, WO_STATUSES, type WorkOrdersSearch } from '../search.ts';
import { type WorkOrder, type WorkOrderListQuery, workordersApi } from '../transport.ts';

/** The service's refusal of a filter, as the sentence shown on its input. */
function refusal(t: TFunction, error: unknown, ...codes: string[]): string | undefined {
  const e = error ? readServiceError(error).errors.find((x) => codes.includes(x.code)) : undefined;
  return e ? serviceErrorText(t, e) : undefined;
}
const OFFICE_CODES = ['fieldService.office.unknown', 'fieldService.officecode.invalid'];
const TECHNICIAN_CODES = ['fieldService.techniciancode.invalid'];
const Q_CODES = ['fieldService.q.invalid'];

const query = (s: WorkOrdersSearch): WorkOrderListQuery => ({
  // A uuid typed in the box opens its work order instead (the shortcut below).
  q: s.q && isUuid(s.q) ? undefined : s.q,
  status: s.status,
  workOrderTypeCode: s.type,
  officeCode: s.office,
  technicianCode: s.technician,
});

/** A code filter: written to the URL when the input is left or on Enter, uppercased. */
function CodeFilter({
  value,
  onCommit,
  ...props
}: {
  value: string | undefined;
  onCommit: (v: string | undefined) => void;
  label: string;
  placeholder: string;
  w: number;
  error: string | undefined;
  'data-testid': string;
}) {
  const commit = (text: string) => onCommit(text.trim().toUpperCase() || undefined);
  return (
    <TextInput
      {...props}
      defaultValue={value ?? ''}
      key={value ?? ''}
      onBlur={(e) => commit(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(e.currentTarget.value);
      }}
    />
  );
}

function Filters({ search, setSearch, error }: ListPartProps<WorkOrdersSearch, WorkOrder>) {
  const { t } = useTranslation('workorders');
  const types = useWorkOrderTypes();
  const statuses = parseStatuses(search.status);
  return (
    <>
      <MultiSelect
        label={t('fields.status')}
        placeholder={statuses.length ? undefined : t('list.allStatuses')}
        data={WO_STATUSES.map((s) => ({ value: s, label: t(`common:workOrderStatus.${s}`) }))}
        value={statuses}
        onChange={(v) => setSearch({ ...search, status: parseStatuses(v.join(',')).join(',') || undefined })}
        clearable
        w={190}
        data-testid="wo-status-filter"
      />
      <Select
        label={t('fields.type')}
        placeholder={t('list.allTypes')}
        data={(types.data ?? []).map((ty) => ({ value: ty.workOrderTypeCode, label: ty.name }))}
        value={search.type ?? null}
        onChange={(v) => setSearch({ ...search, type: v ?? undefined })}
        clearable
        searchable
        w={150}
        data-testid="wo-type-filter"
      />
      <CodeFilter
        label={t('fields.office')}
        placeholder={t('list.anyOffice')}
        value={search.office}
        onCommit={(office) => setSearch({ ...search, office })}
        w={120}
        error={refusal(t, error, ...OFFICE_CODES)}
        data-testid="wo-office-filter"
      />
      <CodeFilter
        label={t('fields.technician')}
        placeholder={t('list.anyTechnician')}
        value={search.technician}
        onCommit={(technician) => setSearch({ ...search, technician })}
        w={130}
        error={refusal(t, error, ...TECHNICIAN_CODES)}
        data-testid="wo-technician-filter"
      />
    </>
  );
}

const workOrdersList = defineList<WorkOrder, WorkOrdersSearch>({
  ns: 'workorders',
  route: getRouteApi(paths.workOrder.list),
  text: {
    title: 'list.title',
    subtitle: 'list.subtitle',
    label: 'list.label',
    loading: 'list.loading',
    search: 'list.search',
    searchPlaceholder: 'list.searchPlaceholder',
    emptyTitle: 'list.emptyTitle',
    empty: 'list.empty',
    noMatchTitle: 'list.noMatchTitle',
    noMatch: 'list.noMatch',
    clear: 'list.clearFilters',
    sortedByCode: 'list.sortedByCode',
  },
  // Wide enough for its placeholder whole, in French too (issue 27, 5).
  searchBox: { testId: 'wo-search', width: 250, error: (e, t) => refusal(t, e, ...Q_CODES) },
  columns: ({ t }) => [
    { key: 'code', header: t('fields.code'), width: 170, render: (w) => <WorkOrderLink wo={w} /> },
    {
      key: 'status',
      header: t('fields.status'),
      width: 150,
      render: (w) => <StatusBadge status={w.status} size="sm" />,
    },
    { key: 'type', header: t('fields.type'), render: (w) => w.workOrderTypeName },
    { key: 'customer', header: t('fields.customer'), width: 140, render: (w) => w.customerCode ?? '' },
    { key: 'office', header: t('fields.office'), width: 110, render: (w) => w.officeCode },
    {
      key: 'technician',
      header: t('fields.technician'),
      width: 130,
      render: (w) =>
        w.schedule.technicianCode ? (
          <AnchorLink
            to={paths.technician.detail}
            params={{ code: w.schedule.technicianCode }}
            size="sm"
            ff="monospace"
          >
            {w.schedule.technicianCode}
          </AnchorLink>
        ) : (
          ''
        ),
    },
    {
      key: 'start',
      header: t('fields.start'),
      width: 150,
      render: (w) => utcMinute(w.schedule.scheduledStart),
    },
  ],
  rowKey: (w) => w.uuid,
  useOpen: () => {
    const navigate = useNavigate();
    // A validated work order no longer holds its code: it is named by its uuid.
    return (w) =>
      w.status === 'VALIDATED'
        ? void navigate({ to: paths.workOrder.uuid, params: { code: w.uuid } })
        : void navigate({ to: paths.workOrder.detail, params: { code: w.workOrderCode } });
  },
  source: {
    kind: 'pages',
    key: (s) => workordersKeys.list(query(s)),
    page: (client, s, token, signal) =>
      workordersApi(client).workOrders({ ...query(s), continuationToken: token }, signal),
    retry: noRetry4xx,
  },
  Filters,
  // A filter the service refused is said on its input; the list says so in place of rows.
  explain: (error, t) =>
    refusal(t, error, ...OFFICE_CODES, ...TECHNICIAN_CODES, ...Q_CODES) ? (
      <EmptyState title={t('list.refusedTitle')} body={t('list.refused')} />
    ) : undefined,
  shortcut: (search, t) => {
    const uuid = search.q && isUuid(search.q) ? search.q.toLowerCase() : undefined;
    return uuid ? (
      <EmptyState
        title={t('list.uuidTitle')}
        body={t('list.uuidBody', { uuid })}
        action={
          <ButtonLink to={paths.workOrder.uuid} params={{ code: uuid }} data-testid="wo-open-uuid">
            {t('list.openUuid')}
          </ButtonLink>
        }
      />
    ) : undefined;
  },
});

export function WorkOrdersPage() {
  return <ResourceListPage list={workOrdersList} />;
}
