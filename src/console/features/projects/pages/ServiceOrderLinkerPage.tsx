/**
 * `/serviceorders/standard/$code` and `/serviceorders/route/$code`: a service order's work
 * orders in order (on a route: the order of the visits), dragged to a new place with the
 * pointer or the keyboard (the link call `first` or `after` the work order it now follows,
 * `index` when that code is carried twice), shown there at once and put back with the
 * service's message when refused; a work order found by its code is added first or last
 * (taken from another service order after confirmation). The rules are stated before the
 * user tries: "4 of 5", full (nothing can join; moves inside still work), completed or
 * validated (frozen), and on a route the work orders completed or higher that cannot leave it.
 */
import '../linker.css';
import {
  Alert,
  Box,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconLock, IconMapPin, IconRoute, IconTool } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkableWorkOrder, ServiceOrder } from '../../../../contract/projectManagement.ts';
import { Refused, useCan } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { BackLabel, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { RecordTabButtons } from '../../../components/records/RecordTabs.tsx';
import { AddWorkOrder } from '../components/AddWorkOrder.tsx';
import { type Refusal, RefusalAlert } from '../components/Refusal.tsx';
import { SortableRows } from '../components/SortableRows.tsx';
import { StatusBadge, WorkOrderStatusBadge } from '../components/StatusBadge.tsx';
import { WorkOrderCode } from '../components/WorkOrderCode.tsx';
import {
  isWorkOrderDone,
  moveItem,
  serviceOrderCandidateBlock,
  serviceOrderDropInsertion,
  serviceOrderRules,
} from '../model.ts';
import { projectPaths as paths, type ServiceOrderKind } from '../paths.ts';
import { projectKeys, useInvalidateLinks, useProjectsApi, useServiceOrder } from '../queries.ts';
import { writeRows } from '../transport.ts';

const routes = {
  standard: getRouteApi(paths.standard.detail),
  route: getRouteApi(paths.route.detail),
};

type Entry = ServiceOrder['workOrders'][number];

export function ServiceOrderLinkerPage({
  kind,
  tabs,
}: {
  kind: ServiceOrderKind;
  tabs: readonly RecordTab[];
}) {
  const { code } = routes[kind].useParams();
  const { t } = useTranslation('projects');
  const so = useServiceOrder(kind, code);
  if (!so.data)
    return (
      <QueryView
        query={so}
        loadingRows={8}
        loadingLabel={t('linker.loading')}
        notFound={
          <RecordNotFound
            title={t('linker.notFoundTitle')}
            body={t(`${kind}.notFound`, { code })}
            back={(_, icon) => (
              <ButtonLink to={paths[kind].list} variant="default" leftSection={icon}>
                {t(`${kind}.back`)}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>
    );
  return <Linker kind={kind} so={so.data} tabs={tabs} />;
}

/** Moving a work order (at once on screen, put back if refused) and adding one, as link calls. */
function useServiceOrderLinks(kind: ServiceOrderKind, so: ServiceOrder) {
  const { t } = useTranslation('projects');
  const api = useProjectsApi();
  const qc = useQueryClient();
  const invalidate = useInvalidateLinks();
  const key = projectKeys.serviceOrder(kind, so.serviceOrderCode);
  const [busy, setBusy] = useState<'move' | 'add' | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [status, setStatus] = useState('');
  const entries = so.workOrders;

  const move = async (from: number, to: number) => {
    const insertion = serviceOrderDropInsertion(
      entries.map((w) => w.code),
      from,
      to,
    );
    const moved = entries[from];
    if (!insertion) return;
    setBusy('move');
    setRefusal(null);
    const before = qc.getQueryData<ServiceOrder>(key);
    await qc.cancelQueries({ queryKey: key });
    qc.setQueryData<ServiceOrder>(key, (s) =>
      s ? { ...s, workOrders: moveItem(s.workOrders, from, to) } : s,
    );
    try {
      await api.linkToServiceOrder(kind, so.serviceOrderCode, moved.code, insertion);
      setStatus(t('linker.moved', { code: moved.code, position: to + 1 }));
      await invalidate(key);
    } catch (e) {
      if (before) qc.setQueryData(key, before);
      setRefusal({ title: t('refused.move', { code: moved.code }), error: e });
      setStatus(t('linker.moveRefused', { code: moved.code }));
      void qc.invalidateQueries({ queryKey: key });
    } finally {
      setBusy(null);
    }
  };

  const add = async (wo: LinkableWorkOrder, place: string): Promise<boolean> => {
    setBusy('add');
    setRefusal(null);
    try {
      await api.linkToServiceOrder(kind, so.serviceOrderCode, wo.workOrderCode, {
        insertionMode: place === 'first' ? 'first' : 'last',
      });
      setStatus(t('linker.added', { code: wo.workOrderCode }));
      await invalidate(key);
      return true;
    } catch (e) {
      setRefusal({ title: t('refused.add', { code: wo.workOrderCode }), error: e });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return { busy, refusal, setRefusal, status, move, add };
}

/** What a service order's panels know of it: its rules, why it is frozen, its links. */
interface OrderState {
  kind: ServiceOrderKind;
  so: ServiceOrder;
  rules: ReturnType<typeof serviceOrderRules>;
  /** Why a role cannot link here; null: it can. */
  denied: string | null;
  closedRule: string;
  links: ReturnType<typeof useServiceOrderLinks>;
}

function Linker({
  kind,
  so,
  tabs,
}: {
  kind: ServiceOrderKind;
  so: ServiceOrder;
  tabs: readonly RecordTab[];
}) {
  const { t } = useTranslation('projects');
  const rules = serviceOrderRules(so);
  const closedRule = t('serviceOrder.closedRule', { status: t(`status.${so.status}`) });
  // A role that cannot link sees the order as frozen, with the reason.
  const can = useCan(writeRows[kind]);
  const denied = can.allowed ? null : (can.reason ?? t('common:loading'));
  const links = useServiceOrderLinks(kind, so);
  const state: OrderState = { kind, so, rules, denied, closedRule, links };
  return (
    <div className="linker-frame" data-testid="service-order-linker">
      <RecordHeader
        back={
          <AnchorLink to={paths[kind].list} size="sm">
            <BackLabel>{t(`${kind}.back`)}</BackLabel>
          </AnchorLink>
        }
        title={so.serviceOrderCode}
        status={<StatusBadge status={so.status} />}
        actions={<RecordTabButtons tabs={tabs} code={so.serviceOrderCode} />}
        subtitle={t(`${kind}.summary`, { office: so.officeCode })}
      />
      <OrderRules {...state} />
      <Refused reason={can.reason} />
      {links.refusal && <RefusalAlert refusal={links.refusal} onClose={() => links.setRefusal(null)} />}
      <VisuallyHidden role="status" aria-live="polite">
        {links.status}
      </VisuallyHidden>
      <div className="linker-columns single">
        <OrderPanel {...state} />
      </div>
    </div>
  );
}

/** How full the order is, and the rule that holds it (closed, full, or the kind's rules). */
function OrderRules({ kind, rules, closedRule }: OrderState) {
  const { t } = useTranslation('projects');
  const countText = t('serviceOrder.countOf', { count: rules.count, max: rules.max });
  return (
    <Stack gap={6} data-testid="rules">
      <Group gap="sm" wrap="nowrap" maw={520}>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="count">
          {countText}
        </Text>
        <Progress
          value={Math.min(100, (100 * rules.count) / Math.max(1, rules.max))}
          color={rules.full ? 'orange' : 'blue'}
          style={{ flex: 1 }}
          aria-label={countText}
        />
      </Group>
      {rules.closed ? (
        <Alert color="gray" variant="light" icon={<IconLock size={18} />} py={8}>
          {closedRule}
        </Alert>
      ) : rules.full ? (
        <Alert color="orange" variant="light" icon={<IconLock size={18} />} py={8}>
          {t('serviceOrder.fullRule', { max: rules.max })}
        </Alert>
      ) : (
        <Text size="xs" c="dimmed">
          {t(`${kind}.rules`, { max: rules.max })}
        </Text>
      )}
    </Stack>
  );
}

/** A work order of the order: its place, handle, code and status (a done one locked on a route). */
function EntryRow({
  kind,
  w,
  index,
  handle,
}: {
  kind: ServiceOrderKind;
  w: Entry;
  index: number;
  handle: ReactNode;
}) {
  const { t } = useTranslation('projects');
  return (
    <div className="job-row" data-testid="job-row" data-job={`workOrder:${w.code}`}>
      <Text size="xs" c="dimmed" className="job-pos" aria-hidden>
        {index + 1}
      </Text>
      <span className="job-handle">{handle}</span>
      <div className="job-main">
        {kind === 'route' ? <IconMapPin size={16} aria-hidden /> : <IconTool size={16} aria-hidden />}
        <WorkOrderCode code={w.code} />
        <WorkOrderStatusBadge status={w.status} />
        {kind === 'route' && isWorkOrderDone(w.status) && (
          <Tooltip label={t('route.doneRule')} multiline w={260} withArrow>
            <ThemeIcon
              variant="transparent"
              color="gray"
              size="sm"
              aria-label={t('route.doneRule')}
              role="img"
            >
              <IconLock size={14} />
            </ThemeIcon>
          </Tooltip>
        )}
      </div>
    </div>
  );
}

/** The order's work orders, dragged to a new place, and the form that adds one. */
function OrderPanel({ kind, so, rules, denied, closedRule, links }: OrderState) {
  const { t } = useTranslation('projects');
  const entries = so.workOrders;
  const here = { kind, code: so.serviceOrderCode };
  const where = (wo: LinkableWorkOrder) =>
    wo.serviceOrderCode
      ? t(wo.serviceOrderKind === 'route' ? 'add.inRoute' : 'add.inServiceOrder', {
          code: wo.serviceOrderCode,
        })
      : null;
  return (
    <Paper withBorder radius="md" className="linker-panel">
      <Group justify="space-between" px="sm" pt="sm" pb={6}>
        <Group gap={6}>
          {kind === 'route' && <IconRoute size={18} aria-hidden />}
          <Title order={2} size="h5">
            {t(`${kind}.workOrdersTitle`)}
          </Title>
        </Group>
        <Text size="xs" c="dimmed">
          {rules.canReorder && !denied ? t('jobs.dragHint') : t('jobs.frozen')}
        </Text>
      </Group>
      <Box px="sm" pb="sm">
        <AddWorkOrder
          places={[
            { value: 'last', label: t(kind === 'route' ? 'add.placeRouteEnd' : 'add.placeLast') },
            { value: 'first', label: t(kind === 'route' ? 'add.placeRouteStart' : 'add.placeFirst') },
          ]}
          disabledReason={
            rules.closed
              ? t('serviceOrder.closedAdd', { status: t(`status.${so.status}`) })
              : rules.full
                ? t('serviceOrder.fullAdd')
                : denied
          }
          blockedReason={(wo) => {
            const why = serviceOrderCandidateBlock(wo, here);
            return why ? t(`add.blocked.${why}`, { code: wo.serviceOrderCode }) : null;
          }}
          heldElsewhere={(wo) =>
            wo.serviceOrderCode && serviceOrderCandidateBlock(wo, here) === null
              ? { code: wo.serviceOrderCode }
              : null
          }
          whereItSits={where}
          onLink={links.add}
          busy={links.busy === 'add'}
          confirmText={(wo, from) => ({
            title: t('add.confirmTitle', { code: wo.workOrderCode, from }),
            body: t('add.confirmServiceOrderBody', {
              code: wo.workOrderCode,
              from,
              to: so.serviceOrderCode,
            }),
            confirm: t('add.confirm'),
          })}
        />
      </Box>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" p="xl" className="linker-scroll">
          {t(`${kind}.emptyOrder`)}
        </Text>
      ) : (
        <SortableRows
          items={entries}
          idOf={(w) => w.uuid}
          labelOf={(w) => w.code}
          movable={() => true}
          lockedReason={() => (rules.canReorder ? denied : closedRule)}
          onMove={(from, to) => void links.move(from, to)}
          busy={links.busy !== null}
          renderRow={(w, index, handle) => <EntryRow kind={kind} w={w} index={index} handle={handle} />}
          label={t(`${kind}.orderLabel`, { code: so.serviceOrderCode })}
          testId="job-list"
        />
      )}
    </Paper>
  );
}
