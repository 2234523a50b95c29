/**
 * `/workorders/$code` and `/workorders/uuid/$code`: a work order, named by code (the live
 * one carrying it) or by uuid. Header (status, type, customer, site, asset, place, schedule
 * with its technician's page), validate and delete after a confirmation, and the tabs
 * Activities and Used items (`?tab=`), whose filters live in the URL too.
 */
import { Button, Card, SimpleGrid, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ContributedTab } from '../../../components/records/ContributedTab.tsx';
import { BackLabel, Field, RecordHeader, valueOrNotSet } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { useRecordName } from '../../../components/records/recordName.tsx';
import { ActivitiesTab } from '../components/ActivitiesTab.tsx';
import { ConfirmAction } from '../components/ConfirmAction.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { UsedItemsTab } from '../components/UsedItemsTab.tsx';
import { utcMinute } from '../model.ts';
import { workordersPaths as paths } from '../paths.ts';
import { useDeleteWorkOrder, useValidateWorkOrder, useWorkOrder } from '../queries.ts';
import type { WorkOrderSearch } from '../search.ts';
import { type WorkOrder, type WorkOrderRef, writeRows } from '../transport.ts';

const byCodeRoute = getRouteApi(paths.workOrder.detail);
const byUuidRoute = getRouteApi(paths.workOrder.uuid);

export function WorkOrderPage({ by, tabs }: { by: 'code' | 'uuid'; tabs: readonly RecordTab[] }) {
  const { t } = useTranslation('workorders');
  const route = by === 'code' ? byCodeRoute : byUuidRoute;
  const { code: id } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate();
  const woRef: WorkOrderRef = { by, id };
  const wo = useWorkOrder(woRef);
  // Named by uuid in the path: the breadcrumbs and the title say its code.
  useRecordName(by === 'uuid' ? wo.data?.workOrderCode : undefined);
  const setSearch = (next: WorkOrderSearch) => {
    if (by === 'code')
      void navigate({ to: paths.workOrder.detail, params: { code: id }, search: next, replace: true });
    else void navigate({ to: paths.workOrder.uuid, params: { code: id }, search: next, replace: true });
  };

  const back = (
    <AnchorLink to={paths.workOrder.list} size="sm">
      <BackLabel>{t('detail.back')}</BackLabel>
    </AnchorLink>
  );

  if (!wo.data)
    return (
      <QueryView
        query={wo}
        loading={
          <Stack gap="md" aria-busy="true">
            <Skeleton height={40} width={360} />
            <Skeleton height={140} />
            <Skeleton height={300} />
          </Stack>
        }
        notFound={
          <RecordNotFound
            title={t('detail.notFoundTitle')}
            body={t('detail.notFound', { id })}
            back={(_, icon) => (
              <ButtonLink to={paths.workOrder.list} variant="default" leftSection={icon}>
                {t('detail.back')}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>
    );
  return (
    <WorkOrderView wo={wo.data} woRef={woRef} back={back} search={search} setSearch={setSearch} tabs={tabs} />
  );
}

interface ViewProps {
  tabs: readonly RecordTab[];
  wo: WorkOrder;
  woRef: WorkOrderRef;
  back: ReactNode;
  search: WorkOrderSearch;
  setSearch: (next: WorkOrderSearch) => void;
}

function WorkOrderView({ wo, woRef, back, search, setSearch, tabs }: ViewProps) {
  const { t } = useTranslation('workorders');
  return (
    // The page scrolls: a grid scrolled brings itself under the header (DataGrid), so its rows
    // take the window (issue 27, 4).
    <Stack gap="md">
      <RecordHeader
        back={back}
        title={<span data-testid="wo-title">{wo.workOrderCode}</span>}
        status={<StatusBadge status={wo.status} size="lg" />}
        subtitle={t('detail.subtitle', { type: wo.workOrderTypeName, uuid: wo.uuid, office: wo.officeCode })}
        actions={<WorkOrderActions wo={wo} />}
      />
      <WorkOrderSummary wo={wo} />
      <WorkOrderTabs wo={wo} woRef={woRef} search={search} setSearch={setSearch} tabs={tabs} />
    </Stack>
  );
}

/** Validate and Delete, each confirmed first; they name the work order by uuid. */
function WorkOrderActions({ wo }: { wo: WorkOrder }) {
  const { t } = useTranslation('workorders');
  const navigate = useNavigate();
  // Actions name the work order by uuid: the one shown, even if another one takes its code.
  const exact: WorkOrderRef = { by: 'uuid', id: wo.uuid };
  const validate = useValidateWorkOrder(exact);
  const remove = useDeleteWorkOrder(exact);
  const [asking, setAsking] = useState<'validate' | 'delete' | null>(null);
  const canValidate = wo.status !== 'VALIDATED' && wo.status !== 'CANCELLED';
  return (
    <>
      <Can call={writeRows.validate}>
        <Button
          variant="light"
          leftSection={<IconCircleCheck size={16} />}
          onClick={() => setAsking('validate')}
          disabled={!canValidate}
          title={canValidate ? undefined : t(`actions.cannotValidate.${wo.status}`)}
          data-testid="wo-validate"
        >
          {t('actions.validate')}
        </Button>
      </Can>
      <Can call={writeRows.remove}>
        <Button
          variant="default"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() => setAsking('delete')}
          data-testid="wo-delete"
        >
          {t('actions.delete')}
        </Button>
      </Can>
      <ConfirmAction
        opened={asking === 'validate'}
        title={t('actions.validateTitle', { code: wo.workOrderCode })}
        body={t('actions.validateBody')}
        confirm={t('actions.validate')}
        color="teal"
        onClose={() => setAsking(null)}
        run={async () => {
          await validate.mutateAsync();
          notifications.show({
            closeButtonProps: { 'aria-label': t('common:undo.close') },
            color: 'teal',
            title: t('actions.validatedTitle'),
            message: t('actions.validated', { code: wo.workOrderCode }),
          });
        }}
        testId="confirm-validate"
      />
      <ConfirmAction
        opened={asking === 'delete'}
        title={t('actions.deleteTitle', { code: wo.workOrderCode })}
        body={t('actions.deleteBody')}
        confirm={t('actions.delete')}
        color="red"
        onClose={() => setAsking(null)}
        run={async () => {
          await remove.mutateAsync();
          notifications.show({
            closeButtonProps: { 'aria-label': t('common:undo.close') },
            color: 'teal',
            title: t('actions.deletedTitle'),
            message: t('actions.deleted', { code: wo.workOrderCode }),
          });
          void navigate({ to: paths.workOrder.list });
        }}
        testId="confirm-delete"
      />
    </>
  );
}

/** The work order at a glance: type, customer, site, asset, place, office, technician, times. */
function WorkOrderSummary({ wo }: { wo: WorkOrder }) {
  const { t } = useTranslation('workorders');
  const place = [wo.location.address, wo.location.zipCode, wo.location.city, wo.location.country]
    .filter(Boolean)
    .join(', ');
  return (
    <Card withBorder radius="md" padding="sm" style={{ flexShrink: 0 }} data-testid="wo-summary">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" verticalSpacing={4}>
        <Field label={t('fields.type')}>
          {wo.workOrderTypeName}{' '}
          <Text span c="dimmed" size="sm" ff="monospace">
            ({wo.workOrderTypeCode})
          </Text>
        </Field>
        <Field label={t('fields.customer')}>{valueOrNotSet(wo.customerCode)}</Field>
        <Field label={t('fields.site')}>{valueOrNotSet(wo.siteCode)}</Field>
        <Field label={t('fields.asset')}>{valueOrNotSet(wo.assetCode)}</Field>
        <Field label={t('fields.place')}>{valueOrNotSet(place)}</Field>
        <Field label={t('fields.office')}>{wo.officeCode}</Field>
        <Field label={t('fields.technician')}>
          {wo.schedule.technicianCode ? (
            <AnchorLink
              to={paths.technician.detail}
              params={{ code: wo.schedule.technicianCode }}
              search={wo.schedule.scheduledStart ? { day: wo.schedule.scheduledStart.slice(0, 10) } : {}}
              size="sm"
              ff="monospace"
              data-testid="wo-technician"
            >
              {wo.schedule.technicianCode}
            </AnchorLink>
          ) : (
            valueOrNotSet(wo.schedule.crewCode)
          )}
        </Field>
        <Field label={t('fields.start')}>{valueOrNotSet(utcMinute(wo.schedule.scheduledStart))}</Field>
        <Field label={t('fields.end')}>{valueOrNotSet(utcMinute(wo.schedule.scheduledEnd))}</Field>
      </SimpleGrid>
      {wo.description && (
        <Text size="sm" mt={6} c="dimmed">
          {wo.description}
        </Text>
      )}
    </Card>
  );
}

/** Activities, used items and the tabs other features add, the one open in the URL. */
function WorkOrderTabs({ wo, woRef, search, setSearch, tabs }: Omit<ViewProps, 'back'>) {
  const { t } = useTranslation('workorders');
  const qc = useQueryClient();
  const tab = search.tab ?? 'activities';
  return (
    <Tabs
      value={tab}
      onChange={(v) => setSearch({ ...search, tab: v && v !== 'activities' ? v : undefined })}
      keepMounted={false}
    >
      <Tabs.List style={{ flexShrink: 0 }}>
        <Tabs.Tab value="activities" data-testid="tab-activities">
          {t('tabs.activities')}
        </Tabs.Tab>
        <Tabs.Tab value="items" data-testid="tab-items">
          {t('tabs.items')}
        </Tabs.Tab>
        {tabs.map((added) => (
          <Tabs.Tab key={added.key} value={added.key} data-testid={`tab-${added.key}`}>
            {t(added.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <Tabs.Panel value="activities" pt="sm">
        <ActivitiesTab woRef={woRef} code={wo.workOrderCode} search={search} setSearch={setSearch} />
      </Tabs.Panel>
      <Tabs.Panel value="items" pt="sm">
        <UsedItemsTab woRef={woRef} code={wo.workOrderCode} search={search} setSearch={setSearch} />
      </Tabs.Panel>
      {tabs.map((added) => (
        <Tabs.Panel key={added.key} value={added.key} pt="sm">
          <ContributedTab
            tab={added}
            code={wo.workOrderCode}
            onChanged={() => qc.invalidateQueries({ queryKey: ['workorders'] })}
          />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
