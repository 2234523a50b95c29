/**
 * The planning part of a work order's page (issue 12): its schedule (who, when; schedule it
 * on a technician or a crew at a start typed in the browser's zone, or find a slot in the
 * planner), its flags (multi-select, replaced as a whole) and its notes (text; a note of
 * report fields is shown, and replaced only by a text). Each refusal shows on the input it
 * is about; what no input takes shows in an alert with its errorReference.
 */
import { SimpleGrid, Stack } from '@mantine/core';
import type { RecordTabProps } from '../../../app/feature.ts';
import { FlagsCard, NotesCard } from './panel/DiagnosticCards.tsx';
import { ScheduleCard } from './panel/ScheduleCard.tsx';

/** The work order page's tab (planning's `tabs` in feature.ts); after a schedule the page reads its work order again. */
export function WorkOrderPlanningPanel({ code, onChanged }: RecordTabProps) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" data-testid="workorder-planning">
      <ScheduleCard code={code} onScheduled={onChanged} />
      <Stack gap="md">
        <FlagsCard code={code} />
        <NotesCard code={code} />
      </Stack>
    </SimpleGrid>
  );
}
