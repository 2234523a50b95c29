/**
 * `/rostering/board`, the dispatch board (issue 28, 3): a lane per technician of the caller's
 * tree (filtered by office, skill, area, code or name) over a day (hours) or a week (days),
 * read a page of 100 technicians at a time as the grid scrolls (rows virtualized), and the
 * unscheduled queue beside it. Work orders are moved by dragging or with the keyboard
 * (useDispatch); what happens is said in a live region. Everything shown is in the URL.
 */
import '../components/board.css';
import {
  ActionIcon,
  Alert,
  Box,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconLock, IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { memo, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../client/index.ts';
import type { BoardTechnician, SlotCheck } from '../../../../contract/slots.ts';
import { useCan } from '../../../app/Can.tsx';
import { DayInput } from '../../../components/customFields/dates.tsx';
import { EmptyState, PageHeader } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { browserTimeZone, type Formats, formats, zoned } from '../../planning/index.ts';
import { Lane } from '../components/Lane.tsx';
import { Queue } from '../components/Queue.tsx';
import { type Axis, boardAxis, shiftDate, ticksOf } from '../model.ts';
import { boardPaths as paths } from '../paths.ts';
import { useBoardRows, useReferences, useReloadRows } from '../queries.ts';
import type { BoardSearch } from '../search.ts';
import { BAR_STATUSES, statusColor } from '../status.ts';
import type { BoardFilters } from '../transport.ts';
import { type Announce, type Dispatch, firstTargetOf, useDispatch } from '../useDispatch.ts';
import { checkText, type Explain } from '../verdict.ts';

const route = getRouteApi(paths.board);

export function BoardPage() {
  const { t } = useTranslation('board');
  // Planners and admins: the roles that hold scheduling:write (the one rule, app/permissions.ts).
  const can = useCan('scheduling:write');
  if (!can.allowed && can.reason)
    return (
      <Stack gap="lg">
        <PageHeader title={t('title')} />
        <EmptyState
          icon={<IconLock size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />}
          title={t('denied.title')}
          body={t('denied.body')}
        />
      </Stack>
    );
  return <Board />;
}

function Board() {
  const { t, i18n } = useTranslation('board');
  const { search, setSearch } = useBoardSearch();
  const { timeZone, f, date, view, axis } = useBoardTime(search, i18n.resolvedLanguage);
  const { rows, reloadRows, all, codes } = useBoardTechnicians(axis.period, search);

  const { said, explain, announce } = useBoardAnnouncer(f);
  const dispatch = useDispatch({ axis, technicianCodes: codes, announce, reloadRows });

  // The queue and the inputs above the grid keep their props while pages of rows arrive:
  // they are not drawn again for each one (the 50 ms task budget of the board's scroll).
  const [text, setText] = useUrlSearchText(search, setSearch);
  const queue = useQueueProps(search, setSearch, codes, axis);
  const columns = useBoardColumns(t, axis, f, dispatch, explain);

  const periodLabel =
    view === 'day' ? f.longDate(date) : `${f.day(axis.days[0])} – ${f.day(axis.days[axis.days.length - 1])}`;

  return (
    <ListFrame>
      <PageHeader title={t('title')} subtitle={t('subtitle', { zone: timeZone })} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <BoardPeriod date={date} view={view} timeZone={timeZone} search={search} setSearch={setSearch} />
        <BoardFilterInputs search={search} setSearch={setSearch} text={text} setText={setText} />
      </Group>
      <BoardLegend periodLabel={periodLabel} />
      {dispatch.picked?.by === 'keyboard' && (
        <Alert variant="light" color="blue" py={6} data-testid="board-keyboard-hint">
          {t('keyboard.hint', { code: dispatch.picked.workOrderCode })}
        </Alert>
      )}
      <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          <BoardGrid rows={rows} all={all} columns={columns} periodLabel={periodLabel} />
        </Stack>
        <Box w={270} style={{ flex: 'none', minHeight: 0 }}>
          <Queue
            filters={queue.filters}
            text={queue.text}
            onText={queue.setText}
            onType={queue.onType}
            dispatch={dispatch}
            explain={explain}
            firstTarget={queue.firstTarget}
          />
        </Box>
      </Group>
      <VisuallyHidden role="status" aria-live="polite" data-testid="board-announcer">
        {said}
      </VisuallyHidden>
    </ListFrame>
  );
}

/** The board's state is its URL: read it, and write it back in place (no history step). */
function useBoardSearch() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = useCallback(
    (next: BoardSearch) => void navigate({ to: paths.board, search: next, replace: true }),
    [navigate],
  );
  return { search, setSearch };
}

/** The period shown (today by default, in the browser's zone), its axis and the formats of its times. */
function useBoardTime(search: BoardSearch, language: string | undefined) {
  const timeZone = useMemo(() => browserTimeZone(), []);
  const f = useMemo(() => formats(language ?? 'en', timeZone), [language, timeZone]);
  const date = search.date ?? zoned(Date.now(), timeZone).date;
  const view = search.view ?? 'day';
  const axis = useMemo(() => boardAxis(date, view, timeZone), [date, view, timeZone]);
  return { timeZone, f, date, view, axis };
}

/** The technicians of the filters, read a page at a time, and their codes in the grid's order. */
function useBoardTechnicians(period: Axis['period'], search: BoardSearch) {
  const filters = useMemo<BoardFilters>(
    () => ({ officeCode: search.office, skillCode: search.skill, areaCode: search.area, q: search.q }),
    [search.office, search.skill, search.area, search.q],
  );
  const rows = useBoardRows(period, filters);
  const reloadRows = useReloadRows(period, filters);
  const all = useMemo(() => rows.data?.pages.flatMap((p) => p.data) ?? [], [rows.data]);
  const codes = useMemo(() => all.map((r) => r.technicianCode), [all]);
  return { rows, reloadRows, all, codes };
}

/** The unscheduled queue's text, filters and callbacks, each stable while pages of rows arrive. */
function useQueueProps(
  search: BoardSearch,
  setSearch: (next: BoardSearch) => void,
  codes: string[],
  axis: Axis,
) {
  const [text, setText] = useUrlSearchText({ ...search, q: search.wo }, (next) =>
    setSearch({ ...search, wo: next.q?.toUpperCase() }),
  );
  const filters = useMemo(() => ({ q: search.wo, workOrderTypeCode: search.type }), [search.wo, search.type]);
  const onType = useCallback(
    (type: string | undefined) => setSearch({ ...search, type }),
    [search, setSearch],
  );
  const firstCode = codes[0];
  const firstTarget = useCallback(
    () => (firstCode ? firstTargetOf(firstCode, axis) : null),
    [firstCode, axis],
  );
  return { text, setText, filters, onType, firstTarget };
}

/** The grid's two columns: the technician, and the lane under the period's scale. */
function useBoardColumns(
  t: TFunction<'board'>,
  axis: Axis,
  f: Formats,
  dispatch: Dispatch,
  explain: Explain,
) {
  const ticks = useMemo(() => ticksOf(axis), [axis]);
  return useMemo<Column<BoardTechnician>[]>(
    () => [
      {
        key: 'technician',
        width: 160,
        header: t('grid.technician'),
        render: (r) => <TechnicianCell code={r.technicianCode} name={r.name} />,
      },
      {
        key: 'lane',
        header: (
          <div className="bd-scale" aria-hidden>
            {ticks.map((k) => (
              <span key={k.key} className="bd-tick" style={{ left: `${k.left}%`, width: `${k.width}%` }}>
                {k.hour !== undefined ? `${String(k.hour).padStart(2, '0')}` : f.day(k.date)}
              </span>
            ))}
          </div>
        ),
        render: (r) => <Lane row={r} axis={axis} f={f} dispatch={dispatch} explain={explain} />,
      },
    ],
    [t, ticks, axis, f, dispatch, explain],
  );
}

/** The technicians' rows, or why the service refused the filters (a 400 is said, not retried). */
function BoardGrid({
  rows,
  all,
  columns,
  periodLabel,
}: {
  rows: ReturnType<typeof useBoardRows>;
  all: BoardTechnician[];
  columns: Column<BoardTechnician>[];
  periodLabel: string;
}) {
  const { t } = useTranslation('board');
  const refusal = rows.error instanceof ApiError && rows.error.status === 400 ? rows.error : null;
  return refusal ? (
    <Alert color="red" title={t('grid.refused')} data-testid="board-refusal">
      {refusal.errors.map((e) => e.message).join(' ')}
    </Alert>
  ) : (
    <QueryView
      query={rows}
      loadingRows={8}
      loadingLabel={t('grid.loading')}
      isEmpty={() => all.length === 0}
      empty={<EmptyState title={t('grid.noneTitle')} body={t('grid.none')} />}
    >
      {() => (
        <VirtualTable
          rows={all}
          columns={columns}
          rowKey={(r) => r.technicianCode}
          rowTestId="board-row"
          hasMore={!!rows.hasNextPage}
          loadingMore={rows.isFetchingNextPage}
          // An ask while the page is on its way waits for it (no second read of the same page).
          loadMore={() => void rows.fetchNextPage({ cancelRefetch: false })}
          label={t('grid.label', { period: periodLabel })}
        />
      )}
    </QueryView>
  );
}

/**
 * Memoized like the lanes, and plain elements (board.css) rather than Mantine's Stack and
 * Text: a screenful of rows mounts at each scroll step, within the board's 50 ms task budget.
 */
const TechnicianCell = memo(function TechnicianCell({ code, name }: { code: string; name: string }) {
  return (
    <div className="bd-technician">
      <div className="bd-technician-code" data-testid="board-technician">
        {code}
      </div>
      <div className="bd-technician-name">{name}</div>
    </div>
  );
});

/** The day or week shown: a step back, the day, a step on, and the view (day or week). */
const BoardPeriod = memo(function BoardPeriod({
  date,
  view,
  timeZone,
  search,
  setSearch,
}: {
  date: string;
  view: 'day' | 'week';
  timeZone: string;
  search: BoardSearch;
  setSearch: (next: BoardSearch) => void;
}) {
  const { t } = useTranslation('board');
  return (
    <>
      <Group gap={4} align="flex-end" wrap="nowrap">
        <Tooltip label={t(view === 'day' ? 'period.previousDay' : 'period.previousWeek')}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t(view === 'day' ? 'period.previousDay' : 'period.previousWeek')}
            onClick={() => setSearch({ ...search, date: shiftDate(date, view, -1) })}
            data-testid="board-previous"
          >
            <IconChevronLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <DayInput
          label={t('period.date')}
          value={date}
          timeZone={timeZone}
          onChange={(v) => setSearch({ ...search, date: v })}
          w={150}
          data-testid="board-date"
        />
        <Tooltip label={t(view === 'day' ? 'period.nextDay' : 'period.nextWeek')}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t(view === 'day' ? 'period.nextDay' : 'period.nextWeek')}
            onClick={() => setSearch({ ...search, date: shiftDate(date, view, 1) })}
            data-testid="board-next"
          >
            <IconChevronRight size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <SegmentedControl
        aria-label={t('period.view')}
        value={view}
        onChange={(v) => setSearch({ ...search, view: v === 'week' ? 'week' : undefined })}
        data={[
          { value: 'day', label: t('period.day') },
          { value: 'week', label: t('period.week') },
        ]}
        data-testid="board-view"
      />
    </>
  );
});

/** The filters of the technicians shown: office, skill, area and a text. */
const BoardFilterInputs = memo(function BoardFilterInputs({
  search,
  setSearch,
  text,
  setText,
}: {
  search: BoardSearch;
  setSearch: (next: BoardSearch) => void;
  text: string;
  setText: (text: string) => void;
}) {
  const { t } = useTranslation('board');
  const refs = useReferences();
  const option = (code: string, name: string) => ({ value: code, label: `${code} · ${name}` });
  return (
    <>
      <Select
        label={t('filter.office')}
        placeholder={t('filter.any')}
        clearable
        searchable
        data={(refs.offices.data ?? []).map((o) => option(o.code, o.name))}
        value={search.office ?? null}
        onChange={(v) => setSearch({ ...search, office: v ?? undefined })}
        w={165}
        data-testid="board-office"
      />
      <Select
        label={t('filter.skill')}
        placeholder={t('filter.any')}
        clearable
        searchable
        data={(refs.skills.data ?? []).map((s) => option(s.skillCode, s.name))}
        value={search.skill ?? null}
        onChange={(v) => setSearch({ ...search, skill: v ?? undefined })}
        w={125}
        data-testid="board-skill"
      />
      <Select
        label={t('filter.area')}
        placeholder={t('filter.any')}
        clearable
        searchable
        data={(refs.areas.data ?? []).map((a) => option(a.areaCode, a.name))}
        value={search.area ?? null}
        onChange={(v) => setSearch({ ...search, area: v ?? undefined })}
        w={125}
        data-testid="board-area"
      />
      <TextInput
        label={t('filter.search')}
        placeholder={t('filter.searchPlaceholder')}
        leftSection={<IconSearch size={14} aria-hidden />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        w={150}
        data-testid="board-search"
      />
    </>
  );
});

/** The period shown and what the bars' colours and patterns mean. */
const BoardLegend = memo(function BoardLegend({ periodLabel }: { periodLabel: string }) {
  const { t } = useTranslation('board');
  return (
    <Group gap="md" wrap="wrap" aria-label={t('legend.label')} role="group">
      <Text size="xs" fw={600}>
        {periodLabel}
      </Text>
      {BAR_STATUSES.map((s) => (
        <Group key={s} gap={4} wrap="nowrap">
          <Box
            w={14}
            h={10}
            style={{
              borderRadius: 3,
              background: `var(--mantine-color-${statusColor(s)}-light)`,
              border: `1px solid var(--mantine-color-${statusColor(s)}-outline)`,
            }}
            aria-hidden
          />
          <Text size="xs">{t(`common:workOrderStatus.${s}`)}</Text>
        </Group>
      ))}
      <Group gap={4} wrap="nowrap">
        <Box w={14} h={10} className="bd-absence" style={{ position: 'static' }} aria-hidden />
        <Text size="xs">{t('legend.absence')}</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <Box w={14} h={6} className="bd-travel" style={{ position: 'static' }} aria-hidden />
        <Text size="xs">{t('legend.travel')}</Text>
      </Group>
      <Group gap={4} wrap="nowrap">
        <Box w={14} h={10} className="bd-busy" style={{ position: 'static' }} aria-hidden />
        <Text size="xs">{t('legend.busy')}</Text>
      </Group>
    </Group>
  );
});

/** What the board says to a screen reader as a work order is picked, moved, refused or scheduled. */
function useBoardAnnouncer(f: ReturnType<typeof formats>) {
  const { t } = useTranslation('board');
  const [said, setSaid] = useState('');
  const explain = useCallback(
    (r: string | SlotCheck) => (typeof r === 'string' ? r : checkText(t, r, f)),
    [t, f],
  );
  const announce = useCallback<Announce>(
    (e) => {
      const at = (target: { technicianCode: string; start: number }) =>
        t('say.at', { technician: target.technicianCode, time: f.dateTime(target.start) });
      switch (e.kind) {
        case 'picked':
          return setSaid(t('say.picked', { code: e.picked.workOrderCode, at: at(e.target) }));
        case 'target':
          return setSaid(
            `${e.picked ? `${t('say.picked', { code: e.picked.workOrderCode, at: at(e.target) })} ` : ''}${at(e.target)}: ${
              e.verdict.state === 'known'
                ? e.verdict.check.fits
                  ? checkText(t, e.verdict.check, f)
                  : t('verdict.refused', { reason: checkText(t, e.verdict.check, f) })
                : t('verdict.failed', {
                    message: e.verdict.state === 'failed' ? String(e.verdict.error) : '',
                  })
            }`,
          );
        case 'refused':
          return setSaid(t('say.refused', { code: e.workOrderCode, reason: checkText(t, e.check, f) }));
        case 'failed':
          return setSaid(
            t('say.failed', {
              code: e.workOrderCode,
              message: e.error instanceof ApiError ? e.error.message : String(e.error),
            }),
          );
        case 'scheduled':
          return setSaid(t('say.scheduled', { code: e.workOrderCode, at: at(e.target) }));
        case 'unscheduled':
          return setSaid(t('say.unscheduled', { code: e.workOrderCode }));
        case 'cancelled':
          return setSaid(t('say.cancelled', { code: e.workOrderCode }));
      }
    },
    [t, f],
  );
  return { said, explain, announce };
}
