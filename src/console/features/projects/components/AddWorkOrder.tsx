/**
 * "Add a work order": find it by its code (the service's work order search, which also says
 * which project and service order hold each one), choose where it goes, link it. A work
 * order held by another container is taken from it only after the user confirms; one the
 * container cannot take is told before the call. Disabled, with the reason, when the
 * container takes no work order.
 */
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconLink, IconSearch } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkableWorkOrder } from '../../../../contract/projectManagement.ts';
import { useDebounced } from '../../../components/useDebounced.ts';
import { useWorkOrderSearch } from '../queries.ts';
import { ConfirmModal } from './ConfirmModal.tsx';
import { WorkOrderStatusBadge } from './StatusBadge.tsx';

export interface AddWorkOrderProps {
  /** Where the choice of place is offered (value -> label); the first is the default. */
  places: { value: string; label: string }[];
  /** Why nothing can be added now, or null. */
  disabledReason: string | null;
  /** Why this work order cannot come here (told before the call), or null. */
  blockedReason: (wo: LinkableWorkOrder) => string | null;
  /** The container holding it that it would leave (asks for confirmation), or null. */
  heldElsewhere: (wo: LinkableWorkOrder) => { code: string; note?: string } | null;
  /** Where the work order sits, for its option (e.g. "in project PRJ-1"). */
  whereItSits: (wo: LinkableWorkOrder) => string | null;
  /** Sends the link call; resolves when linked, rejects with what the service answered. */
  onLink: (wo: LinkableWorkOrder, place: string) => Promise<boolean>;
  busy: boolean;
  /** Text of the confirmation ("take it from project X?"). */
  confirmText: (wo: LinkableWorkOrder, from: string) => { title: string; body: ReactNode; confirm: string };
}

export function AddWorkOrder(props: AddWorkOrderProps) {
  const { places, disabledReason, blockedReason, heldElsewhere, whereItSits, onLink, busy } = props;
  const { t } = useTranslation('projects');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<LinkableWorkOrder | null>(null);
  const [place, setPlace] = useState<string>(places[0]?.value ?? 'last');
  const [confirming, setConfirming] = useState<{ wo: LinkableWorkOrder; from: string } | null>(null);
  const { results, byValue, data } = useWorkOrderOptions(search, chosen, blockedReason);
  const blocked = chosen ? blockedReason(chosen) : null;
  const validPlace = places.some((p) => p.value === place) ? place : (places[0]?.value ?? 'last');

  const link = async (wo: LinkableWorkOrder) => {
    setConfirming(null);
    if (await onLink(wo, validPlace)) {
      setChosen(null);
      setSearch('');
    }
  };
  const submit = () => {
    if (!chosen || blocked) return;
    const from = heldElsewhere(chosen);
    if (from) setConfirming({ wo: chosen, from: from.code });
    else void link(chosen);
  };

  const confirmText = confirming ? props.confirmText(confirming.wo, confirming.from) : null;

  return (
    <Stack gap={6} data-testid="add-work-order">
      <Select
        aria-label={t('add.label')}
        placeholder={t('add.placeholder')}
        leftSection={<IconSearch size={16} />}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        data={data}
        value={chosen?.uuid ?? null}
        onChange={(v) => setChosen(v ? (byValue.get(v) ?? null) : null)}
        filter={({ options }) => options}
        nothingFoundMessage={nothingFound(search, results, t)}
        renderOption={({ option }) => {
          const wo = byValue.get(option.value);
          if (!wo) return option.label;
          return <WorkOrderOption wo={wo} note={blockedReason(wo) ?? whereItSits(wo)} />;
        }}
        disabled={disabledReason !== null}
        comboboxProps={{ withinPortal: true }}
        maxDropdownHeight={280}
        data-testid="add-search"
      />
      {(chosen || places.length > 1) && disabledReason === null && (
        <PlaceAndSubmit
          places={places}
          place={validPlace}
          onPlace={setPlace}
          onSubmit={submit}
          disabled={!chosen || blocked !== null}
          busy={busy}
        />
      )}
      {(disabledReason ?? blocked ?? (chosen && whereItSits(chosen))) && (
        <Text size="xs" c="dimmed" data-testid="add-note">
          {disabledReason ?? blocked ?? (chosen ? whereItSits(chosen) : null)}
        </Text>
      )}
      {confirming && confirmText && (
        <ConfirmModal
          opened
          title={confirmText.title}
          body={confirmText.body}
          confirm={confirmText.confirm}
          onConfirm={() => void link(confirming.wo)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Stack>
  );
}

/**
 * The search's options: the work orders found and the one chosen (kept while the search
 * changes), those that cannot come here disabled.
 */
function useWorkOrderOptions(
  search: string,
  chosen: LinkableWorkOrder | null,
  blockedReason: AddWorkOrderProps['blockedReason'],
) {
  const debounced = useDebounced(search, 200);
  // The search box shows the chosen option's label: no search for it.
  const q = chosen && search === optionLabel(chosen) ? '' : debounced;
  const results = useWorkOrderSearch(q);

  const found = results.data ?? [];
  const byValue = useMemo(() => {
    const m = new Map<string, LinkableWorkOrder>();
    for (const wo of found) m.set(wo.uuid, wo);
    if (chosen) m.set(chosen.uuid, chosen);
    return m;
  }, [found, chosen]);
  const data = [...byValue.values()].map((wo) => ({
    value: wo.uuid,
    label: optionLabel(wo),
    disabled: blockedReason(wo) !== null,
  }));
  return { results, byValue, data };
}

/** What the dropdown says when it has no option. */
function nothingFound(
  search: string,
  results: ReturnType<typeof useWorkOrderSearch>,
  t: TFunction<'projects'>,
) {
  return search.trim().length < 2
    ? t('add.typeMore')
    : results.isFetching
      ? t('add.searching')
      : results.isError
        ? t('add.searchFailed')
        : t('add.nothing');
}

/** A work order in the dropdown: its code, status and office, and where it sits or why it cannot come. */
function WorkOrderOption({ wo, note }: { wo: LinkableWorkOrder; note: string | null }) {
  return (
    <Stack gap={0}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={500} ff="monospace">
          {wo.workOrderCode}
        </Text>
        <WorkOrderStatusBadge status={wo.status} />
        <Text size="xs" c="dimmed">
          {wo.officeCode}
        </Text>
      </Group>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}

/** Where the work order goes (when there is a choice) and the button that links it. */
function PlaceAndSubmit({
  places,
  place,
  onPlace,
  onSubmit,
  disabled,
  busy,
}: {
  places: AddWorkOrderProps['places'];
  place: string;
  onPlace: (place: string) => void;
  onSubmit: () => void;
  disabled: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation('projects');
  return (
    <Group gap="xs" wrap="nowrap">
      {places.length > 1 && (
        <Select
          aria-label={t('add.place')}
          data={places}
          value={place}
          onChange={(v) => v && onPlace(v)}
          allowDeselect={false}
          style={{ flex: 1, minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
          data-testid="add-place"
        />
      )}
      <Button
        leftSection={<IconLink size={16} />}
        onClick={onSubmit}
        disabled={disabled}
        loading={busy}
        data-testid="add-submit"
      >
        {t('add.submit')}
      </Button>
    </Group>
  );
}

/** The option's text (also what the box shows once chosen). */
const optionLabel = (wo: LinkableWorkOrder) => `${wo.workOrderCode} · ${wo.status}`;
