/**
 * `/rostering/planner`: find where a work order (or a type of work at a place) fits in the
 * technicians' calendars and schedule it. The URL holds the search's inputs (a link
 * reproduces it: the slots are fetched again from it); the slots show on a timeline and as
 * a list, each with its travel and why it scored as it did; a slot is scheduled after a
 * confirmation, and the work order then shows on its technician's row.
 */
import { Alert, Stack } from '@mantine/core';
import { IconCalendarSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import { Refused, useCan } from '../../../app/Can.tsx';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { PlannerForm } from '../components/PlannerForm.tsx';
import {
  NoSlots,
  ResultsHeading,
  ScheduledAlert,
  SearchRefusal,
  SlotResults,
} from '../components/PlannerResults.tsx';
import { ScheduleDialog } from '../components/ScheduleDialog.tsx';
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
import type { Slot } from '../slotsModel.ts';
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

  const { refusal, pageErrors, serverErrors } = useSearchErrors(search, slots.error, urlProblems);

  const view = search.view ?? 'timeline';
  const list = useMemo(() => slots.data?.slots ?? [], [slots.data]);
  const picked = useMemo(() => pickedOf(schedule.data), [schedule.data]);
  const period = useMemo(() => periodOf(search, timeZone), [search, timeZone]);
  const onSelect = useCallback((key: string) => setSelected((k) => (k === key ? null : key)), []);

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
          requestAnimationFrame(scrollToResults);
        }}
        onReset={() => {
          setSelected(null);
          setScheduled(null);
          setSearch({});
        }}
      />

      <section aria-labelledby="results-title">
        <ResultsHeading count={list.length} target={slots.data?.target} />

        {scheduled && (
          <ScheduledAlert
            code={scheduled.code}
            now={schedule.data}
            f={f}
            onClose={() => setScheduled(null)}
          />
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
            explain={() => (refusal ? <SearchRefusal refusal={refusal} page={pageErrors} /> : undefined)}
            isEmpty={() => list.length === 0}
            empty={
              <NoSlots
                excluded={slots.data?.excluded}
                periodStart={period?.start ?? Date.now()}
                timeZone={timeZone}
                f={f}
              />
            }
          >
            {() => (
              <SlotResults
                slots={list}
                view={view}
                onView={(v) =>
                  void navigate({
                    to: paths.planner,
                    search: { ...search, view: v === 'list' ? 'list' : undefined },
                    replace: true,
                  })
                }
                picked={picked}
                period={period}
                excluded={slots.data?.excluded}
                timeZone={timeZone}
                f={f}
                selected={selected}
                onSelect={onSelect}
                workOrderCode={search.wo}
                canSchedule={canSchedule}
                onSchedule={setScheduling}
              />
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

/**
 * The search's problems by input of the form: the service's refusal (a 400, each code on its
 * input, the rest for the page) and what a link holds that the form would refuse.
 */
function useSearchErrors(search: PlannerSearch, error: unknown, urlProblems: ReturnType<typeof checkForm>) {
  const { t } = useTranslation('planning');
  const ctx = {
    period: search.period ?? 'ranges',
    target:
      search.wo || !(search.address || search.zip || search.city || search.lat !== undefined)
        ? 'workOrder'
        : 'place',
  } as const;
  const refusal = error instanceof ApiError && error.status === 400 ? readServiceError(error) : null;
  const grouped = refusal ? errorsByField(refusal.errors, ctx) : { fields: {}, page: [] };
  const serverErrors: Partial<Record<PlannerField, string[]>> = {};
  for (const [field, list] of Object.entries(grouped.fields))
    serverErrors[field as PlannerField] = (list ?? []).map((e) => errorSentence(t, e));
  for (const p of urlProblems) {
    const message = p.message.startsWith('planning:') ? t(p.message) : p.message;
    serverErrors[p.field] = [...(serverErrors[p.field] ?? []), message];
  }
  return { refusal, pageErrors: grouped.page, serverErrors };
}

/** The work order's place now, drawn on the timeline beside the slots (none: not scheduled). */
function pickedOf(s: ReturnType<typeof useSchedule>['data']) {
  if (!s?.technicianCode || !s.scheduledStart || !s.scheduledEnd) return null;
  return {
    uuid: s.uuid,
    technicianCode: s.technicianCode,
    workOrderCode: s.workOrderCode,
    start: Date.parse(s.scheduledStart),
    end: Date.parse(s.scheduledEnd),
    picked: true,
  };
}

const scrollToResults = () =>
  document.getElementById('results-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
