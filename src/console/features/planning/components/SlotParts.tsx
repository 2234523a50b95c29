/**
 * The parts of a slot the planner shows: its score as a badge, the travel around it, and
 * why it scored as it did (scoreDetails: points of each part out of its weight, and the
 * figures behind them).
 */
import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconHome, IconTool } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SCORE_TRAVEL_HORIZON_MINUTES } from '../../../../contract/slots.ts';
import type { Formats } from '../format.ts';
import { points, type Slot, scoreBand, scoreParts, slotSpan } from '../slotsModel.ts';

const BAND_COLOR = { high: 'teal', mid: 'yellow', low: 'orange' } as const;

export function ScoreBadge({ score }: { score: number }) {
  const { t } = useTranslation('planning');
  return (
    <Badge
      variant="light"
      color={BAND_COLOR[scoreBand(score)]}
      aria-label={t('slot.scoreLabel', { score: Math.round(score) })}
      style={{ textTransform: 'none' }}
    >
      {Math.round(score)}
    </Badge>
  );
}

/** "12 min · 5.2 km from home" / "to WO-123". */
export function TravelText({
  travel,
  direction,
  compact,
}: {
  travel: Slot['travelBefore'] | Slot['travelAfter'];
  direction: 'before' | 'after';
  /** "3 min · 1.3 km · home" (the list's column says before or after). */
  compact?: boolean;
}) {
  const { t } = useTranslation('planning');
  const stop = 'from' in travel ? travel.from : travel.to;
  const place = stop.type === 'home' ? t('slot.home') : (stop.workOrderCode ?? t('slot.workOrder'));
  return (
    <>
      {t(compact ? 'slot.travelCompact' : direction === 'before' ? 'slot.travelFrom' : 'slot.travelTo', {
        minutes: travel.minutes,
        km: points(travel.kilometres),
        place,
      })}
    </>
  );
}

/** One line per part of the score, for the list's "why" column. */
export function scoreSummary(s: Slot): string {
  return scoreParts(s)
    .map((p) => `${points(p.points)}/${p.max}`)
    .join(' · ');
}

/** The selected slot in full: when, who, the travel around it, why it scored so, and its action. */
export function SlotDetails({ slot, f, action }: { slot: Slot; f: Formats; action: ReactNode }) {
  const { t } = useTranslation('planning');
  const span = slotSpan(slot);
  const d = slot.scoreDetails;
  const explain: Record<string, string> = {
    travel: t('score.travel', { minutes: d.addedTravelMinutes, horizon: SCORE_TRAVEL_HORIZON_MINUTES }),
    earliness: t('score.earliness'),
    workload: t('score.workload', { booked: d.bookedMinutes, working: d.workingMinutes }),
  };
  return (
    <Paper withBorder radius="md" p="md" data-testid="slot-details" aria-labelledby="slot-details-title">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text fw={700} id="slot-details-title" component="h3" m={0} size="md">
            {t('slot.title', { technician: slot.technicians.join(', '), when: f.span(span.start, span.end) })}
          </Text>
          <Group gap="lg" wrap="wrap">
            <Text size="sm" c="dimmed">
              <IconHome size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
              <TravelText travel={slot.travelBefore} direction="before" />
            </Text>
            <Text size="sm" c="dimmed">
              <IconTool size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
              {t('slot.work', { minutes: Math.round((span.end - span.start) / 60_000) })}
            </Text>
            <Text size="sm" c="dimmed">
              <IconArrowRight size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
              <TravelText travel={slot.travelAfter} direction="after" />
            </Text>
          </Group>
        </Stack>
        <Group gap="sm">
          <Text size="sm" fw={600}>
            {t('slot.score')}
          </Text>
          <ScoreBadge score={slot.score} />
          {action}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {scoreParts(slot).map((p) => (
          <Stack key={p.key} gap={4} data-testid={`score-${p.key}`}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600}>
                {t(`score.part.${p.key}`)}
              </Text>
              <Text size="sm">{t('score.points', { points: points(p.points), max: p.max })}</Text>
            </Group>
            <Progress
              value={(100 * p.points) / p.max}
              color={BAND_COLOR[scoreBand((100 * p.points) / p.max)]}
              aria-label={t('score.progress', {
                part: t(`score.part.${p.key}`),
                points: points(p.points),
                max: p.max,
              })}
            />
            <Text size="xs" c="dimmed">
              {explain[p.key]}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
