/**
 * How the import shows each row of the file (valid, refused, written) and the summary of a run.
 */
import { Alert, Badge, Group, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CsvRow } from '../csv.ts';
import type { ImportSummary, RowOutcome } from '../importRunner.ts';
import { StatusBadge } from './StatusBadge.tsx';

export function RowStatus({ row, outcome }: { row: CsvRow; outcome: RowOutcome | undefined }) {
  const { t } = useTranslation('catalog');
  if (row.errors.length > 0)
    return (
      <StatusBadge color="red" leftSection={<IconX size={12} />}>
        {t('csv.status.invalid')}
      </StatusBadge>
    );
  if (!outcome) return <StatusBadge color="gray">{t('csv.status.ready')}</StatusBadge>;
  if (outcome.status === 'failed')
    return (
      <Badge color="red" variant="filled" leftSection={<IconX size={12} />}>
        {t('csv.status.failed')}
      </Badge>
    );
  return (
    <StatusBadge color="teal" leftSection={<IconCheck size={12} />}>
      {t(`csv.status.${outcome.status}`)}
    </StatusBadge>
  );
}

export function ImportSummaryBlock({ summary, invalid }: { summary: ImportSummary; invalid: number }) {
  const { t } = useTranslation('catalog');
  const color = summary.failed > 0 ? 'orange' : summary.cancelled ? 'yellow' : 'teal';
  return (
    <Alert
      color={color}
      variant="light"
      title={summary.cancelled ? t('csv.summaryCancelled') : t('csv.summaryTitle')}
      data-testid="import-summary"
    >
      <Group gap="lg">
        <Text size="sm">{t('csv.created', { count: summary.created })}</Text>
        <Text size="sm">{t('csv.updated', { count: summary.updated })}</Text>
        <Text size="sm" c={summary.failed > 0 ? 'red.9' : undefined}>
          {t('csv.failed', { count: summary.failed })}
        </Text>
        {summary.skipped > 0 && <Text size="sm">{t('csv.skipped', { count: summary.skipped })}</Text>}
        {invalid > 0 && <Text size="sm">{t('csv.notImported', { count: invalid })}</Text>}
      </Group>
    </Alert>
  );
}
