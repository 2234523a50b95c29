/**
 * The planner's results (pages/PlannerPage.tsx owns the search and its state): the alert
 * once a slot is scheduled, what shows before a search or for a link the form refuses, the
 * service's refusal of a search, and the slots found, on a timeline beside "Why not…?" or as
 * a list, with the chosen slot's details.
 */
import { Alert, Box, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import {
  IconCalendarPlus,
  IconCalendarSearch,
  IconInfoCircle,
  IconList,
  IconTimeline,
} from '@tabler/icons-react';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import type { ServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState } from '../../../components/layout/index.ts';
import { type QueryLike, QueryView } from '../../../components/layout/QueryView.tsx';
import type { ErrorItem } from '../errorFields.ts';
import type { Formats } from '../format.ts';
import { type Slot, slotKey } from '../slotsModel.ts';
import { writeRows } from '../transport.ts';
import { RefusalAlert } from './RefusalAlert.tsx';
import { SlotList } from './SlotList.tsx';
import { SlotDetails } from './SlotParts.tsx';
import { SlotTimeline } from './SlotTimeline.tsx';
import { WhyNot } from './WhyNot.tsx';

/** The results' title, and once found, how many slots and where the work is. */
export function ResultsHeading({
  count,
  target,
}: {
  count: number;
  target: { source: string; latitude: number; longitude: number } | undefined;
}) {
  const { t } = useTranslation('planning');
  return (
    <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
      <Text component="h2" id="results-title" fw={700} size="lg" m={0}>
        {t('results.title')}
      </Text>
      {target && (
        <Text size="sm" c="dimmed" data-testid="results-summary">
          {t('results.count', { count })} ·{' '}
          {t(`results.target.${target.source}`, {
            lat: target.latitude.toFixed(4),
            lon: target.longitude.toFixed(4),
          })}
        </Text>
      )}
    </Group>
  );
}

/** No slot at all: said, and "Why not…?" says it of every technician. */
function NoSlots({
  excluded,
  ...whyNot
}: Omit<WhyNotProps, 'excluded'> & { excluded: WhyNotProps['excluded'] | undefined }) {
  const { t } = useTranslation('planning');
  return (
    <Stack gap="md">
      <EmptyState title={t('results.noneTitle')} body={t('results.none')} />
      {excluded && <WhyNot excluded={excluded} {...whyNot} />}
    </Stack>
  );
}

/** Where the work order now is: read again after the schedule (its technician and span). */
export function ScheduledAlert({
  code,
  now,
  f,
  onClose,
}: {
  code: string;
  now:
    | { technicianCode?: string | null; scheduledStart?: string | null; scheduledEnd?: string | null }
    | undefined;
  f: Formats;
  onClose: () => void;
}) {
  const { t } = useTranslation('planning');
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconInfoCircle size={18} />}
      mb="md"
      withCloseButton
      closeButtonLabel={t('results.dismiss')}
      onClose={onClose}
      data-testid="scheduled-alert"
      title={t('results.scheduledTitle', { code })}
    >
      {now?.technicianCode && now.scheduledStart && now.scheduledEnd
        ? t('results.scheduledBody', {
            code,
            technician: now.technicianCode,
            when: f.span(Date.parse(now.scheduledStart), Date.parse(now.scheduledEnd)),
          })
        : t('results.scheduledReading')}
    </Alert>
  );
}

/** What a slot's details offer: schedule the work order there, or first pick a work order. */
function ScheduleHere({ code, onSchedule }: { code: string | undefined; onSchedule: () => void }) {
  const { t } = useTranslation('planning');
  return code ? (
    <Can call={writeRows.schedule}>
      <Button
        size="xs"
        leftSection={<IconCalendarPlus size={14} />}
        onClick={onSchedule}
        data-testid="schedule-slot"
      >
        {t('slot.scheduleHere', { code })}
      </Button>
    </Can>
  ) : (
    <Text size="xs" c="dimmed" maw={260}>
      {t('slot.pickWorkOrder')}
    </Text>
  );
}

/** The service's refusal of the search: what no input of the form takes, each with its code. */
function SearchRefusal({ refusal, page }: { refusal: ServiceError; page: readonly ErrorItem[] }) {
  const { t } = useTranslation('planning');
  return (
    <RefusalAlert
      refusal={refusal}
      items={page}
      title={t('results.refusedTitle')}
      intro={page.length === 0 ? t('results.refused') : t('results.refusedPage')}
      testId="search-refused"
    />
  );
}

type WhyNotProps = ComponentProps<typeof WhyNot>;
type TimelineProps = ComponentProps<typeof SlotTimeline>;

/** The slots found: the timeline (with "Why not…?" beside it) or the list, then the chosen slot. */
function SlotResults({
  slots,
  view,
  onView,
  picked,
  period,
  excluded,
  timeZone,
  f,
  selected,
  onSelect,
  workOrderCode,
  canSchedule,
  onSchedule,
}: {
  slots: readonly Slot[];
  view: 'timeline' | 'list';
  onView: (view: 'timeline' | 'list') => void;
  picked: TimelineProps['picked'];
  period: TimelineProps['period'];
  excluded: WhyNotProps['excluded'] | undefined;
  timeZone: string;
  f: Formats;
  selected: string | null;
  onSelect: (key: string) => void;
  /** The work order to schedule (none: the slots of a type of work at a place). */
  workOrderCode: string | undefined;
  canSchedule: boolean;
  onSchedule: (slot: Slot) => void;
}) {
  const { t } = useTranslation('planning');
  const chosen = slots.find((s) => slotKey(s) === selected) ?? null;
  return (
    <Stack gap="md">
      <Tabs value={view} onChange={(v) => onView(v === 'list' ? 'list' : 'timeline')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="timeline" leftSection={<IconTimeline size={16} />} data-testid="tab-timeline">
            {t('results.timeline')}
          </Tabs.Tab>
          <Tabs.Tab value="list" leftSection={<IconList size={16} />} data-testid="tab-list">
            {t('results.list')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="timeline" pt="sm">
          <Group align="flex-start" gap="md" wrap="nowrap">
            <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
              <SlotTimeline
                slots={slots}
                picked={picked}
                period={period}
                timeZone={timeZone}
                f={f}
                selected={selected}
                onSelect={onSelect}
              />
            </Stack>
            {excluded && (
              <Box w={320} style={{ flex: 'none' }}>
                <WhyNot
                  excluded={excluded}
                  periodStart={period?.start ?? Date.now()}
                  timeZone={timeZone}
                  f={f}
                />
              </Box>
            )}
          </Group>
        </Tabs.Panel>
        <Tabs.Panel value="list" pt="sm">
          <SlotList
            slots={slots}
            f={f}
            selected={selected}
            onSelect={onSelect}
            onSchedule={workOrderCode && canSchedule ? onSchedule : undefined}
          />
        </Tabs.Panel>
      </Tabs>
      {chosen ? (
        <SlotDetails
          slot={chosen}
          f={f}
          action={<ScheduleHere code={workOrderCode} onSchedule={() => onSchedule(chosen)} />}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('results.pickHint')}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Below the results' heading: a prompt before any search, a request to fix a link the form
 * refuses (not sent), else the search's answer: its refusal, no slot, or the slots.
 */
export function SearchOutcome({
  started,
  refusedByForm,
  query,
  refusal,
  pageErrors,
  results,
}: {
  /** The URL holds a search (its period). */
  started: boolean;
  refusedByForm: boolean;
  query: QueryLike<unknown>;
  refusal: ServiceError | null;
  pageErrors: readonly ErrorItem[];
  results: ComponentProps<typeof SlotResults>;
}) {
  const { t } = useTranslation('planning');
  if (!started)
    return (
      <EmptyState
        icon={<IconCalendarSearch size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />}
        title={t('results.startTitle')}
        body={t('results.start')}
      />
    );
  if (refusedByForm)
    return (
      <Alert color="red" variant="light" role="alert" title={t('results.fixTitle')}>
        {t('results.fix')}
      </Alert>
    );
  return (
    <QueryView
      query={query}
      loadingRows={6}
      loadingLabel={t('results.searching')}
      // The service's refusal of the search, each sentence with its code.
      explain={() => (refusal ? <SearchRefusal refusal={refusal} page={pageErrors} /> : undefined)}
      isEmpty={() => results.slots.length === 0}
      empty={
        <NoSlots
          excluded={results.excluded}
          periodStart={results.period?.start ?? Date.now()}
          timeZone={results.timeZone}
          f={results.f}
        />
      }
    >
      {() => <SlotResults {...results} />}
    </QueryView>
  );
}
