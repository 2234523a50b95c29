/**
 * `/workorders`: the work orders of the caller's office tree, by code, over the keyset pages
 * of the list extension (virtualized, the next page read as the end comes near). Search by
 * code prefix (a uuid typed there opens that work order), filters status (several), type,
 * office and technician; every filter lives in the URL.
 */
import { Button, Group, MultiSelect, Select, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { serviceErrorText } from '../components/ConfirmAction.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { WorkOrderLink } from '../components/WorkOrderLink.tsx';
import { utcMinute } from '../model.ts';
import { workordersPaths as paths } from '../paths.ts';
import { useWorkOrderList, useWorkOrderTypes } from '../queries.ts';
import { isUuid, parseStatuses, WO_STATUSES, type WorkOrdersSearch } from '../search.ts';
import type { WorkOrder } from '../transport.ts';

const route = getRouteApi(paths.workOrder.list);

export function WorkOrdersPage() {
  const { t } = useTranslation('workorders');
  const navigate = route.useNavigate();
  const search = route.useSearch();
  const setSearch = (next: WorkOrdersSearch) =>
    void navigate({ to: paths.workOrder.list, search: next, replace: true });
  const [text, setText] = useUrlSearchText(search, setSearch);
  const uuid = search.q && isUuid(search.q) ? search.q.toLowerCase() : undefined;
  const query = useMemo(
    () => ({
      q: uuid ? undefined : search.q,
      status: search.status,
      workOrderTypeCode: search.type,
      officeCode: search.office,
      technicianCode: search.technician,
    }),
    [uuid, search.q, search.status, search.type, search.office, search.technician],
  );
  const list = useWorkOrderList(query);
  const types = useWorkOrderTypes();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const filtered = Object.values(search).some((v) => v !== undefined);
  const statuses = parseStatuses(search.status);
  // A filter the service refuses shows on its input (the rest in the error state).
  const refused = list.isError ? readServiceError(list.error) : null;
  const errorOn = (...codes: string[]) => {
    const e = refused?.errors.find((x) => codes.includes(x.code));
    return e ? serviceErrorText(t, e) : undefined;
  };
  const officeError = errorOn('fieldService.office.unknown', 'fieldService.officecode.invalid');
  const technicianError = errorOn('fieldService.techniciancode.invalid');
  const qError = errorOn('fieldService.q.invalid');

  const columns: Column<WorkOrder>[] = [
    {
      key: 'code',
      header: t('fields.code'),
      width: 170,
      render: (w) => <WorkOrderLink wo={w} />,
    },
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
  ];

  return (
    <ListFrame>
      <PageHeader title={t('list.title')} subtitle={t('list.subtitle')} />
      <Group gap="sm" align="flex-end" wrap="wrap" style={{ flexShrink: 0 }}>
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={180}
          error={qError}
          data-testid="wo-search"
        />
        <MultiSelect
          label={t('fields.status')}
          placeholder={statuses.length ? undefined : t('list.allStatuses')}
          data={WO_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={statuses}
          onChange={(v) =>
            setSearch({ ...search, status: parseStatuses(v.join(',')).join(',') || undefined })
          }
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
        <TextInput
          label={t('fields.office')}
          placeholder={t('list.anyOffice')}
          defaultValue={search.office ?? ''}
          key={`office-${search.office ?? ''}`}
          onBlur={(e) =>
            setSearch({ ...search, office: e.currentTarget.value.trim().toUpperCase() || undefined })
          }
          onKeyDown={(e) => {
            if (e.key === 'Enter')
              setSearch({ ...search, office: e.currentTarget.value.trim().toUpperCase() || undefined });
          }}
          w={120}
          error={officeError}
          data-testid="wo-office-filter"
        />
        <TextInput
          label={t('fields.technician')}
          placeholder={t('list.anyTechnician')}
          defaultValue={search.technician ?? ''}
          key={`tech-${search.technician ?? ''}`}
          onBlur={(e) =>
            setSearch({ ...search, technician: e.currentTarget.value.trim().toUpperCase() || undefined })
          }
          onKeyDown={(e) => {
            if (e.key === 'Enter')
              setSearch({ ...search, technician: e.currentTarget.value.trim().toUpperCase() || undefined });
          }}
          w={130}
          error={technicianError}
          data-testid="wo-technician-filter"
        />
        {filtered && (
          <Button variant="subtle" onClick={() => setSearch({})} mb={2}>
            {t('list.clearFilters')}
          </Button>
        )}
      </Group>
      {uuid ? (
        <EmptyState
          title={t('list.uuidTitle')}
          body={t('list.uuidBody', { uuid })}
          action={
            <ButtonLink to={paths.workOrder.uuid} params={{ code: uuid }} data-testid="wo-open-uuid">
              {t('list.openUuid')}
            </ButtonLink>
          }
        />
      ) : list.isPending ? (
        <LoadingState rows={8} label={t('list.loading')} />
      ) : list.isError && (officeError || technicianError || qError) ? (
        <EmptyState title={t('list.refusedTitle')} body={t('list.refused')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={filtered ? t('list.noMatchTitle') : t('list.emptyTitle')}
          body={filtered ? t('list.noMatch') : t('list.empty')}
          action={
            filtered ? (
              <Button variant="default" onClick={() => setSearch({})}>
                {t('list.clearFilters')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {t('list.sortedByCode')}
          </Text>
          <VirtualTable
            rows={rows}
            columns={columns}
            rowKey={(w) => w.uuid}
            onOpen={(w) =>
              w.status === 'VALIDATED'
                ? void navigate({ to: paths.workOrder.uuid, params: { code: w.uuid } })
                : void navigate({ to: paths.workOrder.detail, params: { code: w.workOrderCode } })
            }
            hasMore={!!list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            loadMore={() => void list.fetchNextPage()}
            label={t('list.label')}
          />
        </>
      )}
    </ListFrame>
  );
}
