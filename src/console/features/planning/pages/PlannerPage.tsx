/**
 * `/rostering/planner`: find where a work order (or a type of work at a place) fits in the
 * technicians' calendars and schedule it. The URL holds the search's inputs (a link
 * reproduces it: the slots are fetched again from it); the slots show on a timeline and as
 * a list, each with its travel and why it scored as it did; a slot is scheduled after a
 * confirmation, and the work order then shows on its technician's row.
 */
import { Alert, Box, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import {
  IconCalendarPlus,
  IconCalendarSearch,
  IconInfoCircle,
  IconList,
  IconTimeline,
} from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import { Can, Refused, useCan } from '../../../app/Can.tsx';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { CopyReference, EmptyState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { PlannerForm } from '../components/PlannerForm.tsx';
import { ScheduleDialog } from '../components/ScheduleDialog.tsx';
import { SlotList } from '../components/SlotList.tsx';
import { SlotDetails } from '../components/SlotParts.tsx';
import { SlotTimeline } from '../components/SlotTimeline.tsx';
import { WhyNot } from '../components/WhyNot.tsx';
import { errorSentence, errorsByField } from '../errorFields.ts';
import { formats } from '../format.ts';
import { planningPaths as paths } from '../paths.ts';
import { useSchedule, useSlotSearch } from '../queries.ts';
import {
  checkForm,
  formFromSearch,
  type PlannerField,
  periodOf,
  requestFromSearch,
  searchFromForm,
} from '../request.ts';
import type { PlannerSearch } from '../search.ts';
import { type Slot, slotKey } from '../slotsModel.ts';
import { browserTimeZone } from '../time.ts';
import { writeRows } from '../transport.ts';

const route = getRouteApi(paths.planner);

export function PlannerPage() {
  const { t, i18n } = useTranslation('planning');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const f = useMemo(
    () => formats(i18n.resolvedLanguage ?? 'en', timeZone),
    [i18n.resolvedLanguage, timeZone],
  );
  const setSearch = (next: PlannerSearch) => void navigate({ to: paths.planner, search: next });

  // A link may hold what the form would refuse (a date that does not exist): not sent.
  const urlProblems = useMemo(
    () => (search.period ? checkForm(formFromSearch(search, timeZone, Date.now()), timeZone) : []),
    [search, timeZone],
  );
  const body = useMemo(
    () => (search.period && urlProblems.length === 0 ? requestFromSearch(search) : null),
    [search, urlProblems],
  );
  // A role without the search's scope (a link opened by a viewer) sends nothing.
  const canSearch = useCan(writeRows.searchSlots);
  const canSchedule = useCan(writeRows.schedule).allowed;
  // explain: the answer also says why each other technician has no slot ("Why not…?").
  const slots = useSlotSearch(canSearch.allowed && body ? { ...body, explain: true } : null);
  const schedule = useSchedule(search.wo);
  const [selected, setSelected] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState<Slot | null>(null);
  const [scheduled, setScheduled] = useState<{ code: string; slot: Slot } | null>(null);

  const ctx = {
    period: search.period ?? 'ranges',
    target:
      search.wo || !(search.address || search.zip || search.city || search.lat !== undefined)
        ? 'workOrder'
        : 'place',
  } as const;
  const refusal =
    slots.error instanceof ApiError && slots.error.status === 400 ? readServiceError(slots.error) : null;
  const grouped = refusal ? errorsByField(refusal.errors, ctx) : { fields: {}, page: [] };
  const serverErrors: Partial<Record<PlannerField, string[]>> = {};
  for (const [field, list] of Object.entries(grouped.fields))
    serverErrors[field as PlannerField] = (list ?? []).map((e) => errorSentence(t, e));
  for (const p of urlProblems) {
    const message = p.message.startsWith('planning:') ? t(p.message) : p.message;
    serverErrors[p.field] = [...(serverErrors[p.field] ?? []), message];
  }

  const view = search.view ?? 'timeline';
  const list = useMemo(() => slots.data?.slots ?? [], [slots.data]);
  const selectedSlot = list.find((s) => slotKey(s) === selected) ?? null;
  const picked = useMemo(() => {
    const s = schedule.data;
    if (!s?.technicianCode || !s.scheduledStart || !s.scheduledEnd) return null;
    return {
      uuid: s.uuid,
      technicianCode: s.technicianCode,
      workOrderCode: s.workOrderCode,
      start: Date.parse(s.scheduledStart),
      end: Date.parse(s.scheduledEnd),
      picked: true,
    };
  }, [schedule.data]);
  const period = useMemo(() => periodOf(search, timeZone), [search, timeZone]);
  const onSelect = useCallback((key: string) => setSelected((k) => (k === key ? null : key)), []);

  const scheduleButton = (slot: Slot) =>
    search.wo ? (
      <Can call={writeRows.schedule}>
        <Button
          size="xs"
          leftSection={<IconCalendarPlus size={14} />}
          onClick={() => setScheduling(slot)}
          data-testid="schedule-slot"
        >
          {t('slot.scheduleHere', { code: search.wo })}
        </Button>
      </Can>
    ) : (
      <Text size="xs" c="dimmed" maw={260}>
        {t('slot.pickWorkOrder')}
      </Text>
    );

  return (
    <Stack gap="lg">
      <PageHeader title={t('planner.title')} subtitle={t('planner.subtitle')} />
      <Refused reason={canSearch.reason} />
      <PlannerForm
        key={JSON.stringify(search)}
        search={search}
        timeZone={timeZone}
        f={f}
        serverErrors={serverErrors}
        searching={slots.isFetching}
        onSearch={(values) => {
          if (!canSearch.allowed) return;
          const next = searchFromForm(values, timeZone, search.view);
          setSelected(null);
          setScheduled(null);
          if (JSON.stringify(next) === JSON.stringify(search)) void slots.refetch();
          else setSearch(next);
          requestAnimationFrame(() =>
            document.getElementById('results-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
          );
        }}
        onReset={() => {
          setSelected(null);
          setScheduled(null);
          setSearch({});
        }}
      />

      <section aria-labelledby="results-title">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
          <Text component="h2" id="results-title" fw={700} size="lg" m={0}>
            {t('results.title')}
          </Text>
          {slots.data && (
            <Text size="sm" c="dimmed" data-testid="results-summary">
              {t('results.count', { count: list.length })} ·{' '}
              {t(`results.target.${slots.data.target.source}`, {
                lat: slots.data.target.latitude.toFixed(4),
                lon: slots.data.target.longitude.toFixed(4),
              })}
            </Text>
          )}
        </Group>

        {scheduled && (
          <Alert
            color="teal"
            variant="light"
            icon={<IconInfoCircle size={18} />}
            mb="md"
            withCloseButton
            closeButtonLabel={t('results.dismiss')}
            onClose={() => setScheduled(null)}
            data-testid="scheduled-alert"
            title={t('results.scheduledTitle', { code: scheduled.code })}
          >
            {schedule.data?.technicianCode && schedule.data.scheduledStart && schedule.data.scheduledEnd
              ? t('results.scheduledBody', {
                  code: scheduled.code,
                  technician: schedule.data.technicianCode,
                  when: f.span(
                    Date.parse(schedule.data.scheduledStart),
                    Date.parse(schedule.data.scheduledEnd),
                  ),
                })
              : t('results.scheduledReading')}
          </Alert>
        )}

        {!search.period ? (
          <EmptyState
            icon={
              <IconCalendarSearch size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />
            }
            title={t('results.startTitle')}
            body={t('results.start')}
          />
        ) : urlProblems.length > 0 ? (
          <Alert color="red" variant="light" role="alert" title={t('results.fixTitle')}>
            {t('results.fix')}
          </Alert>
        ) : (
          <QueryView
            query={slots}
            loadingRows={6}
            loadingLabel={t('results.searching')}
            // The service's refusal of the search, each sentence with its code.
            explain={() =>
              refusal ? (
                <Alert
                  color="red"
                  variant="light"
                  role="alert"
                  title={t('results.refusedTitle')}
                  data-testid="search-refused"
                >
                  <Stack gap={6}>
                    <Text size="sm">
                      {grouped.page.length === 0 ? t('results.refused') : t('results.refusedPage')}
                    </Text>
                    {grouped.page.map((e) => (
                      <Text key={e.code} size="sm">
                        {errorSentence(t, e)}{' '}
                        <Text span size="xs" c="dimmed" ff="monospace">
                          ({e.code})
                        </Text>
                      </Text>
                    ))}
                    {refusal.errorReference && <CopyReference reference={refusal.errorReference} />}
                  </Stack>
                </Alert>
              ) : undefined
            }
            isEmpty={() => list.length === 0}
            empty={
              <Stack gap="md">
                <EmptyState title={t('results.noneTitle')} body={t('results.none')} />
                {/* No slot at all: "Why not…?" says it of every technician. */}
                {slots.data?.excluded && (
                  <WhyNot
                    excluded={slots.data.excluded}
                    periodStart={period?.start ?? Date.now()}
                    timeZone={timeZone}
                    f={f}
                  />
                )}
              </Stack>
            }
          >
            {() => (
              <Stack gap="md">
                <Tabs
                  value={view}
                  onChange={(v) =>
                    void navigate({
                      to: paths.planner,
                      search: { ...search, view: v === 'list' ? 'list' : undefined },
                      replace: true,
                    })
                  }
                  keepMounted={false}
                >
                  <Tabs.List>
                    <Tabs.Tab
                      value="timeline"
                      leftSection={<IconTimeline size={16} />}
                      data-testid="tab-timeline"
                    >
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
                          slots={list}
                          picked={picked}
                          period={period}
                          timeZone={timeZone}
                          f={f}
                          selected={selected}
                          onSelect={onSelect}
                        />
                      </Stack>
                      {slots.data?.excluded && (
                        <Box w={320} style={{ flex: 'none' }}>
                          <WhyNot
                            excluded={slots.data.excluded}
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
                      slots={list}
                      f={f}
                      selected={selected}
                      onSelect={onSelect}
                      onSchedule={search.wo && canSchedule ? (s) => setScheduling(s) : undefined}
                    />
                  </Tabs.Panel>
                </Tabs>
                {selectedSlot ? (
                  <SlotDetails slot={selectedSlot} f={f} action={scheduleButton(selectedSlot)} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('results.pickHint')}
                  </Text>
                )}
              </Stack>
            )}
          </QueryView>
        )}
      </section>

      {scheduling && search.wo && (
        <ScheduleDialog
          workOrderCode={search.wo}
          slot={scheduling}
          f={f}
          timeZone={timeZone}
          onClose={() => setScheduling(null)}
          onScheduled={(slot) => {
            setScheduling(null);
            // Announced once, by the alert above the results.
            setScheduled({ code: search.wo ?? '', slot });
          }}
        />
      )}
    </Stack>
  );
}
