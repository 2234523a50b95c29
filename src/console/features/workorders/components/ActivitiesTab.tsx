/**
 * A work order's activities: filters (validation, invoicing: in the URL), the totals of the
 * filtered activities (the totals extension), the virtualized grid over the keyset pages of
 * 200, and the CSV export of every page.
 */
import { Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink } from '../../../components/links.tsx';
import {
  ACTIVITY_CSV_HEADER,
  activityFilters,
  csvName,
  hoursMinutes,
  isoDurationSeconds,
  toCsv,
  utcMinute,
} from '../model.ts';
import { workordersPaths as paths } from '../paths.ts';
import { useActivities, useActivityTotals, useActivityTypeNames, useWorkordersApi } from '../queries.ts';
import type { WorkOrderSearch } from '../search.ts';
import type { Activity, WorkOrderRef } from '../transport.ts';
import { DataGrid, type GridColumn } from './DataGrid.tsx';
import { ExportCsvButton, loadedOf } from './ExportCsvButton.tsx';
import { Figure, TotalsBar } from './Totals.tsx';

interface TabProps {
  woRef: WorkOrderRef;
  code: string;
  search: WorkOrderSearch;
  setSearch: (next: WorkOrderSearch) => void;
}

export function ActivitiesTab({ woRef, code, search, setSearch }: TabProps) {
  const { t, i18n } = useTranslation('workorders');
  const count = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const filters = activityFilters(search);
  const list = useActivities(woRef, filters);
  const totals = useActivityTotals(woRef, filters);
  const api = useWorkordersApi();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const fetchNext = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const columns = useActivityColumns();
  const tot = totals.data;
  return (
    <Stack gap="sm">
      <ActivityFilters search={search} setSearch={setSearch} />
      <ActivityTotals totals={totals} />
      <QueryView
        query={list}
        loadingRows={8}
        loadingLabel={t('activity.loading')}
        isEmpty={() => rows.length === 0}
        empty={
          <EmptyState
            title={t('activity.emptyTitle')}
            body={search.validation || search.invoicing ? t('activity.noMatch') : t('activity.empty')}
          />
        }
      >
        {() => (
          <DataGrid
            gridId="activities"
            label={t('activity.label', { code })}
            rows={rows}
            columns={columns}
            rowKey={(a) => a.activityId}
            hasMore={!!hasNextPage}
            fetchingMore={isFetchingNextPage}
            fetchNext={fetchNext}
            toolbar={
              <>
                <Badge variant="light" color="gray" radius="sm" data-testid="activities-loaded">
                  {t('grid.loaded', {
                    n: count.format(rows.length),
                    total: count.format(tot?.count ?? rows.length),
                  })}
                </Badge>
                <ExportCsvButton<Activity>
                  loaded={loadedOf(list.data?.pages, rows, !!hasNextPage)}
                  testId="export-activities"
                  total={tot?.count}
                  fetchPage={(token, signal) =>
                    api.activities(woRef, { ...filters, continuationToken: token }, signal)
                  }
                  toCsv={(all) =>
                    toCsv(
                      ACTIVITY_CSV_HEADER,
                      all.map((a) => ACTIVITY_CSV_HEADER.map((k) => a[k])),
                    )
                  }
                  fileName={() => csvName('activities', code, new Date())}
                />
              </>
            }
          />
        )}
      </QueryView>
    </Stack>
  );
}

/** The grid's columns: id, type (by its name), agent (a link), times, duration, billable, validation. */
function useActivityColumns() {
  const { t } = useTranslation('workorders');
  const names = useActivityTypeNames();
  return useMemo<GridColumn<Activity>[]>(
    () => [
      { id: 'activityId', header: t('activity.activityId'), size: 128, render: (a) => a.activityId },
      {
        id: 'type',
        header: t('activity.type'),
        size: 110,
        render: (a) => names.data?.get(a.activityTypeCode) ?? a.activityTypeCode,
      },
      {
        id: 'agent',
        header: t('activity.agent'),
        size: 110,
        render: (a) => (
          <AnchorLink to={paths.technician.detail} params={{ code: a.agentCode }} size="sm" ff="monospace">
            {a.agentCode}
          </AnchorLink>
        ),
      },
      { id: 'start', header: t('activity.start'), size: 148, render: (a) => utcMinute(a.startTime) },
      { id: 'end', header: t('activity.end'), size: 148, render: (a) => utcMinute(a.endTime) },
      {
        id: 'duration',
        header: t('activity.duration'),
        size: 90,
        align: 'right',
        render: (a) => {
          const s = isoDurationSeconds(a.duration);
          return s === null ? a.duration : hoursMinutes(s);
        },
      },
      {
        id: 'billable',
        header: t('activity.billable'),
        size: 105,
        render: (a) => (a.billable ? t('activity.yes') : t('activity.no')),
      },
      {
        id: 'validatedAt',
        header: t('activity.validatedAt'),
        size: 148,
        render: (a) => (a.validatedAt ? utcMinute(a.validatedAt) : ''),
      },
    ],
    [t, names.data],
  );
}

/** The validation and invoicing filters, in the URL. */
function ActivityFilters({ search, setSearch }: Pick<TabProps, 'search' | 'setSearch'>) {
  const { t } = useTranslation('workorders');
  return (
    <Group gap="md" wrap="wrap" style={{ flexShrink: 0 }}>
      <Group gap="xs">
        <Text size="sm" fw={500} component="span" id="activity-validation-label">
          {t('filters.validation')}
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby="activity-validation-label"
          value={search.validation ?? 'all'}
          onChange={(v) =>
            setSearch({
              ...search,
              validation: v === 'all' ? undefined : v,
            })
          }
          data={[
            { value: 'all', label: t('filters.all') },
            { value: 'validated', label: t('filters.validated') },
            { value: 'notValidated', label: t('filters.notValidated') },
          ]}
          data-testid="filter-validation"
        />
      </Group>
      <Group gap="xs">
        <Text size="sm" fw={500} component="span" id="activity-invoicing-label">
          {t('filters.invoicing')}
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby="activity-invoicing-label"
          value={search.invoicing ?? 'all'}
          onChange={(v) =>
            setSearch({
              ...search,
              invoicing: v === 'all' ? undefined : v,
            })
          }
          data={[
            { value: 'all', label: t('filters.all') },
            { value: 'billable', label: t('filters.billable') },
            { value: 'notBillable', label: t('filters.notBillable') },
          ]}
          data-testid="filter-invoicing"
        />
      </Group>
    </Group>
  );
}

/** The totals of the filtered activities: count, duration, billable or not, validated. */
function ActivityTotals({ totals }: { totals: ReturnType<typeof useActivityTotals> }) {
  const { t, i18n } = useTranslation('workorders');
  const count = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en');
  const tot = totals.data;
  return (
    <TotalsBar loading={totals.isPending} label={t('activity.totals')} testId="activity-totals">
      {tot && (
        <>
          <Figure label={t('totals.activities')} value={count.format(tot.count)} testId="total-count" />
          <Figure
            label={t('totals.duration')}
            value={hoursMinutes(tot.durationSeconds)}
            testId="total-duration"
          />
          <Figure
            label={t('totals.billable')}
            value={`${hoursMinutes(tot.billable.durationSeconds)} (${count.format(tot.billable.count)})`}
            testId="total-billable"
          />
          <Figure
            label={t('totals.notBillable')}
            value={`${hoursMinutes(tot.notBillable.durationSeconds)} (${count.format(tot.notBillable.count)})`}
            testId="total-not-billable"
          />
          <Figure
            label={t('totals.validated')}
            value={`${count.format(tot.validatedCount)} / ${count.format(tot.count)}`}
            testId="total-validated"
          />
        </>
      )}
    </TotalsBar>
  );
}
