/**
 * Confirmation of a schedule: the work order, the technician, the start and end (in the
 * display zone, with the UTC start sent), then PUT .../schedule. A refusal is shown on the
 * line it is about (`scheduling.*` codes), the rest in an alert with its errorReference.
 */
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError, type ServiceError } from '../../../components/forms/serviceErrors.ts';
import { errorSentence, type ScheduleLine, scheduleErrorLine } from '../errorFields.ts';
import type { Formats } from '../format.ts';
import { useScheduleWorkOrder } from '../queries.ts';
import { type Slot, slotSpan } from '../slotsModel.ts';
import { toApiDateTime } from '../time.ts';
import { RefusalAlert } from './RefusalAlert.tsx';

export function ScheduleDialog({
  workOrderCode,
  slot,
  f,
  timeZone,
  onClose,
  onScheduled,
}: {
  workOrderCode: string;
  slot: Slot;
  f: Formats;
  timeZone: string;
  onClose: () => void;
  onScheduled: (slot: Slot) => void;
}) {
  const { t } = useTranslation('planning');
  const schedule = useScheduleWorkOrder();
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  const span = slotSpan(slot);
  const technicianCode = slot.technicians[0];
  const start = toApiDateTime(span.start);

  const onLine = (line: ScheduleLine) =>
    refusal?.errors.filter((e) => scheduleErrorLine(e.code) === line) ?? [];
  const others = refusal?.errors.filter((e) => scheduleErrorLine(e.code) === null) ?? [];

  const confirm = () => {
    setRefusal(null);
    schedule.mutate(
      { code: workOrderCode, body: { technicianCode, start } },
      {
        onSuccess: () => onScheduled(slot),
        onError: (e) => setRefusal(readServiceError(e)),
      },
    );
  };

  const lineErrors = (line: ScheduleLine) =>
    onLine(line).map((e) => (
      <Text key={e.code} size="sm" c="var(--mantine-color-error)" data-testid={`schedule-error-${line}`}>
        {errorSentence(t, e)}
      </Text>
    ));

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('schedule.title')}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('schedule.cancel') }}
    >
      <Stack gap="md">
        <Text size="sm">{t('schedule.intro')}</Text>
        <Table withRowBorders={false} verticalSpacing={6} data-testid="schedule-summary">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={150}>{t('schedule.workOrder')}</Table.Th>
              <Table.Td>
                <Text fw={600} size="sm">
                  {workOrderCode}
                </Text>
                {lineErrors('workOrder')}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('schedule.technician')}</Table.Th>
              <Table.Td>
                <Text fw={600} size="sm">
                  {technicianCode}
                </Text>
                {lineErrors('resource')}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('schedule.when')}</Table.Th>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {f.span(span.start, span.end)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('schedule.zone', { zone: timeZone, utc: start.replace('T', ' ') })}
                </Text>
                {lineErrors('start')}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {refusal && <RefusalAlert refusal={refusal} items={others} title={t('schedule.refused')} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={schedule.isPending}>
            {t('schedule.cancel')}
          </Button>
          <Button onClick={confirm} loading={schedule.isPending} data-testid="schedule-confirm">
            {t('schedule.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
