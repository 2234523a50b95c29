/**
 * `/rostering/planner`: find where a work order (or a type of work at a place) fits in the
 * technicians' calendars and schedule it. The URL holds the search's inputs (a link
 * reproduces it: the slots are fetched again from it); the slots show on a timeline and as
 * a list, each with its travel and why it scored as it did; a slot is scheduled after a
 * confirmation, and the work order then shows on its technician's row.
 */
import { Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import { Refused, useCan } from '../../../app/Can.tsx';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { PageHeader } from '../../../components/layout/index.ts';
import { PlannerForm } from '../components/PlannerForm.tsx';
import { ResultsHeading, ScheduledAlert, SearchOutcome } from '../components/PlannerResults.tsx';
import { ScheduleDialog } from '../components/ScheduleDialog.tsx';
import { errorSentence, errorsByField } from '../errorFields.ts';
import { formats } from '../format.ts';
import { planningPaths as paths } from '../paths.ts';
import { useSchedule, useSlotSearch } from '../queries.ts';
import {
  checkForm,
  formFromSearch,
  type PlannerField,
  type PlannerFormValues,
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
  const { t } = useTranslation('planning');
  const search = route.useSearch();
  const { timeZone, f } = usePlannerFormats();
  const { urlProblems, canSearch, slots, refusal, pageErrors, serverErrors } = useUrlSlotSearch(
    search,
    timeZone,
  );
  const canSchedule = useCan(writeRows.schedule).allowed;
  const schedule = useSchedule(search.wo);
  const choice = useSlotChoice();
  const { onSearch, onReset, onView } = useSearchActions({
    search,
    timeZone,
    canSearch: canSearch.allowed,
    refetch: slots.refetch,
    clearChoice: choice.clear,
  });

  const list = useMemo(() => slots.data?.slots ?? [], [slots.data]);
  const picked = useMemo(() => pickedOf(schedule.data), [schedule.data]);
  const period = useMemo(() => periodOf(search, timeZone), [search, timeZone]);

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
        onSearch={onSearch}
        onReset={onReset}
      />

      <section aria-labelledby="results-title">
        <ResultsHeading count={list.length} target={slots.data?.target} />

        {choice.scheduled && (
          <ScheduledAlert
            code={choice.scheduled.code}
            now={schedule.data}
            f={f}
            onClose={() => choice.setScheduled(null)}
          />
        )}

        <SearchOutcome
          started={!!search.period}
          refusedByForm={urlProblems.length > 0}
          query={slots}
          refusal={refusal}
          pageErrors={pageErrors}
          results={{
            slots: list,
            view: search.view ?? 'timeline',
            onView,
            picked,
            period,
            excluded: slots.data?.excluded,
            timeZone,
            f,
            selected: choice.selected,
            onSelect: choice.onSelect,
            workOrderCode: search.wo,
            canSchedule,
            onSchedule: choice.setScheduling,
          }}
        />
      </section>

      {choice.scheduling && search.wo && (
        <ScheduleDialog
          workOrderCode={search.wo}
          slot={choice.scheduling}
          f={f}
          timeZone={timeZone}
          onClose={() => choice.setScheduling(null)}
          onScheduled={(slot) => {
            choice.setScheduling(null);
            // Announced once, by the alert above the results.
            choice.setScheduled({ code: search.wo ?? '', slot });
          }}
        />
      )}
    </Stack>
  );
}

/** The display time zone (the browser's) and the formats of the console's language in it. */
function usePlannerFormats() {
  const { i18n } = useTranslation('planning');
  const timeZone = useMemo(() => browserTimeZone(), []);
  const f = useMemo(
    () => formats(i18n.resolvedLanguage ?? 'en', timeZone),
    [i18n.resolvedLanguage, timeZone],
  );
  return { timeZone, f };
}

/** The URL's search sent (none before a period is given), its answer and its problems by input. */
function useUrlSlotSearch(search: PlannerSearch, timeZone: string) {
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
  // explain: the answer also says why each other technician has no slot ("Why not…?").
  const slots = useSlotSearch(canSearch.allowed && body ? { ...body, explain: true } : null);
  return { urlProblems, canSearch, slots, ...useSearchErrors(search, slots.error, urlProblems) };
}

/**
 * What writes the URL: Search (the form's search, or the same one fetched again) and Reset,
 * both forgetting the chosen slot and the scheduled alert; and the results' view.
 */
function useSearchActions({
  search,
  timeZone,
  canSearch,
  refetch,
  clearChoice,
}: {
  search: PlannerSearch;
  timeZone: string;
  canSearch: boolean;
  refetch: () => unknown;
  clearChoice: () => void;
}) {
  const navigate = route.useNavigate();
  const setSearch = (next: PlannerSearch) => void navigate({ to: paths.planner, search: next });
  return {
    onSearch: (values: PlannerFormValues) => {
      if (!canSearch) return;
      const next = searchFromForm(values, timeZone, search.view);
      clearChoice();
      if (JSON.stringify(next) === JSON.stringify(search)) void refetch();
      else setSearch(next);
      requestAnimationFrame(scrollToResults);
    },
    onReset: () => {
      clearChoice();
      setSearch({});
    },
    onView: (v: 'timeline' | 'list') =>
      void navigate({
        to: paths.planner,
        search: { ...search, view: v === 'list' ? 'list' : undefined },
        replace: true,
      }),
  };
}

/**
 * The slot chosen on the results, the one being scheduled (its confirmation open) and the
 * work order just scheduled (its alert); `clear` (a new search, a reset) forgets the first and the last.
 */
function useSlotChoice() {
  const [selected, setSelected] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState<Slot | null>(null);
  const [scheduled, setScheduled] = useState<{ code: string; slot: Slot } | null>(null);
  const onSelect = useCallback((key: string) => setSelected((k) => (k === key ? null : key)), []);
  const clear = () => {
    setSelected(null);
    setScheduled(null);
  };
  return { selected, onSelect, scheduling, setScheduling, scheduled, setScheduled, clear };
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
