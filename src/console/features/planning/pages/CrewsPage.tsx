/**
 * `/rostering/crews`: the crews active over a period (in the URL: `?from=&to=`, dates both
 * inclusive), on a timeline: a heading row per crew, its main and secondary members'
 * participation intervals (clipped to the period by the service) on the days as columns.
 * Pages of crews follow the continuationToken ("Load more"). Only shows: no form code.
 */
import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconUsersGroup } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import { DayInput } from '../../../components/customFields/dates.tsx';
import { EmptyState, ErrorState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink } from '../../../components/links.tsx';
import { textWidth, widestText } from '../../../components/textWidth.ts';
import { workordersPaths } from '../../workorders/index.ts';
import { Timeline, type TimelineRow } from '../components/Timeline.tsx';
import { crewRows, defaultCrewPeriod } from '../crewsModel.ts';
import { formats } from '../format.ts';
import { planningPaths as paths } from '../paths.ts';
import { useCrews } from '../queries.ts';
import type { CrewsSearch } from '../search.ts';
import { addDays, browserTimeZone, daysBetween, isDate, zoned } from '../time.ts';
import { dayAxis } from '../timeline.ts';

const route = getRouteApi(paths.crews);
/** Columns at most (a year); a longer period shows its first year. */
const MAX_DAYS = 366;

export function CrewsPage() {
  const { t, i18n } = useTranslation('planning');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const f = useMemo(
    () => formats(i18n.resolvedLanguage ?? 'en', timeZone),
    [i18n.resolvedLanguage, timeZone],
  );
  const today = zoned(Date.now(), timeZone).date;
  const fallback = defaultCrewPeriod(today, addDays);
  const from = search.from ?? fallback.from;
  const to = search.to ?? fallback.to;
  const valid = isDate(from) && isDate(to) && to >= from;
  const crews = useCrews(from, to, valid);
  const setPeriod = (next: CrewsSearch) => void navigate({ to: paths.crews, search: next });
  const axis = useMemo(() => dayAxis(from, valid ? to : from, MAX_DAYS), [from, to, valid]);
  const all = useMemo(() => crews.data?.pages.flatMap((p) => p.data) ?? [], [crews.data]);
  const rows = useMemo(() => timelineRows(all, axis, f, t), [all, axis, f, t]);
  const labelWidth = useMemo(() => labelColumnWidth(all, axis, t), [all, axis, t]);
  const refusal = crews.error instanceof ApiError && crews.error.status === 400 ? crews.error : null;

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('crews.title')}
        subtitle={t('crews.subtitle')}
        badge={
          crews.data ? (
            <Badge variant="light" color="gray" style={{ textTransform: 'none' }} data-testid="crews-count">
              {crews.hasNextPage
                ? t('crews.countMore', { count: all.length })
                : t('crews.count', { count: all.length })}
            </Badge>
          ) : undefined
        }
      />
      <PeriodForm
        from={from}
        to={to}
        valid={valid}
        timeZone={timeZone}
        refusal={refusal?.errors[0]?.message}
        setPeriod={setPeriod}
      />
      {!valid ? (
        <EmptyState title={t('crews.badPeriodTitle')} body={t('crews.badPeriod')} />
      ) : (
        <QueryView
          query={crews}
          loadingRows={6}
          loadingLabel={t('crews.loading')}
          isEmpty={() => all.length === 0}
          empty={
            <EmptyState
              icon={<IconUsersGroup size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />}
              title={t('crews.noneTitle')}
              body={t('crews.none')}
            />
          }
        >
          {() => (
            <Stack gap="xs">
              <Timeline
                axis={axis}
                rows={rows}
                ariaLabel={t('crews.timelineLabel')}
                dayLabel={(d) => (
                  <Stack gap={0} align="center">
                    <Text size="xs" c="dimmed" lh={1.2}>
                      {f.weekday(d)}
                    </Text>
                    <Text size="xs" fw={600} lh={1.2}>
                      {d === axis.days[0] || d.endsWith('-01') ? f.dayMonth(d) : f.dayNumber(d)}
                    </Text>
                  </Stack>
                )}
                corner={
                  <Text size="xs" c="dimmed">
                    {t('crews.corner')}
                  </Text>
                }
                labelWidth={labelWidth}
                // Two weeks (the default period) fit the page at 1280 px without scrolling.
                minDayWidth={52}
                maxHeight={560}
                hourLines={false}
                testId="crews-timeline"
              />
              {axis.truncated && (
                <Text size="xs" c="dimmed">
                  {t('crews.truncated', { count: axis.days.length })}
                </Text>
              )}
              <Group gap="sm">
                {crews.hasNextPage ? (
                  <Button
                    variant="light"
                    onClick={() => crews.fetchNextPage()}
                    loading={crews.isFetchingNextPage}
                    data-testid="crews-more"
                  >
                    {t('crews.more')}
                  </Button>
                ) : (
                  <Text size="xs" c="dimmed">
                    {t('crews.end', { count: all.length })}
                  </Text>
                )}
                {crews.isError && crews.data && (
                  <ErrorState error={crews.error} onRetry={() => crews.fetchNextPage()} />
                )}
              </Group>
            </Stack>
          )}
        </QueryView>
      )}
    </Stack>
  );
}

type Crew = Parameters<typeof crewRows>[0][number];
type Axis = ReturnType<typeof dayAxis>;

/** The period's two days (a draft until "Show"), and the arrows to the previous and next period. */
function PeriodForm({
  from,
  to,
  valid,
  timeZone,
  refusal,
  setPeriod,
}: {
  from: string;
  to: string;
  valid: boolean;
  timeZone: string;
  /** The service's refusal of the period, shown on its first day. */
  refusal?: string;
  setPeriod: (next: CrewsSearch) => void;
}) {
  const { t } = useTranslation('planning');
  const [draft, setDraft] = useState({ from, to });
  const [draftKey, setDraftKey] = useState(`${from}|${to}`);
  if (draftKey !== `${from}|${to}`) {
    setDraftKey(`${from}|${to}`);
    setDraft({ from, to });
  }
  const draftError =
    draft.from && !isDate(draft.from)
      ? { field: 'from', message: t('crews.badDate') }
      : draft.to && !isDate(draft.to)
        ? { field: 'to', message: t('crews.badDate') }
        : draft.from && draft.to && draft.to < draft.from
          ? { field: 'to', message: t('crews.endBeforeStart') }
          : null;
  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (draftError || !draft.from || !draft.to) return;
    setPeriod({ from: draft.from, to: draft.to });
  };
  const span = daysBetween(from, to) + 1;
  const shift = (dir: 1 | -1) => {
    if (!valid) return;
    setPeriod({ from: addDays(from, dir * span), to: addDays(to, dir * span) });
  };
  return (
    <form onSubmit={apply} aria-label={t('crews.periodLabel')} noValidate>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <DayInput
          label={t('crews.from')}
          value={draft.from}
          timeZone={timeZone}
          onChange={(from) => setDraft((d) => ({ ...d, from }))}
          error={draftError?.field === 'from' ? draftError.message : refusal}
          w={190}
          data-testid="crews-from"
        />
        <DayInput
          label={t('crews.to')}
          value={draft.to}
          timeZone={timeZone}
          onChange={(to) => setDraft((d) => ({ ...d, to }))}
          error={draftError?.field === 'to' ? draftError.message : undefined}
          w={190}
          data-testid="crews-to"
        />
        <Group gap="xs" mt={25}>
          <Button type="submit" disabled={!!draftError || !draft.from || !draft.to} data-testid="crews-apply">
            {t('crews.show')}
          </Button>
          <Tooltip label={t('crews.previous', { count: span })}>
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => shift(-1)}
              aria-label={t('crews.previous', { count: span })}
              disabled={!valid}
            >
              <IconChevronLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('crews.next', { count: span })}>
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => shift(1)}
              aria-label={t('crews.next', { count: span })}
              disabled={!valid}
            >
              <IconChevronRight size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </form>
  );
}

/** A heading row per crew, a row per member with their participation intervals as bars. */
function timelineRows(
  all: readonly Crew[],
  axis: Axis,
  f: ReturnType<typeof formats>,
  t: TFunction<'planning'>,
): TimelineRow[] {
  return crewRows(all, axis).map((r) => ({
    key: r.key,
    group: r.kind === 'crew',
    lanes: 1,
    testId: r.kind === 'crew' ? 'crew-row' : 'crew-member-row',
    label:
      r.kind === 'crew' ? (
        <Group gap={6} wrap="nowrap">
          <IconUsersGroup size={15} aria-hidden />
          <Text size="sm" fw={700} truncate title={r.crewCode}>
            {r.crewCode}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            {t('crews.members', { count: r.memberCount ?? 0 })}
          </Text>
        </Group>
      ) : (
        <Group gap={6} wrap="nowrap" pl="md">
          <AnchorLink
            to={workordersPaths.technician.detail}
            params={{ code: r.technicianCode ?? '' }}
            size="sm"
            truncate
            data-testid="crew-member-link"
          >
            {r.technicianCode}
          </AnchorLink>
          {r.kind === 'main' && (
            <Badge size="xs" variant="light" color="indigo" style={{ textTransform: 'none' }}>
              {t('crews.main')}
            </Badge>
          )}
        </Group>
      ),
    bars: r.bars.map((b) => ({
      key: b.key,
      bar: b.bar,
      lane: 0,
      tone: r.kind === 'main' ? ('main' as const) : ('secondary' as const),
      label: t(r.kind === 'main' ? 'crews.mainInterval' : 'crews.secondaryInterval', {
        technician: r.technicianCode,
        crew: r.crewCode,
        from: f.longDate(b.from),
        to: f.longDate(b.to),
      }),
      text: b.from === b.to ? f.day(b.from) : `${f.day(b.from)} – ${f.day(b.to)}`,
      testId: 'crew-interval',
    })),
  }));
}

/**
 * The labels' column as wide as its longest crew or member code (issue 27, 5): 10 px of
 * padding a side, the icon or the indent, the count or the "main" badge beside it.
 */
function labelColumnWidth(all: readonly Crew[], axis: Axis, t: TFunction<'planning'>): number {
  const members = t('crews.members', { count: 99 });
  const crewWidth = widestText(
    all.map((c) => c.crewCode),
    { weight: 700 },
  );
  const memberWidth = widestText(
    crewRows(all, axis).flatMap((r) => (r.technicianCode ? [r.technicianCode] : [])),
  );
  const need = Math.max(
    20 + 15 + 6 + crewWidth + 6 + textWidth(members, { size: 12 }),
    20 + 16 + memberWidth + 6 + textWidth(t('crews.main'), { size: 10, weight: 700 }) + 16,
  );
  return Math.min(560, Math.max(230, Math.ceil(need) + 2));
}
