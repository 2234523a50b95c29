import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  NEW: 'gray',
  QUALIFIED: 'cyan',
  PRE_SCHEDULED: 'indigo',
  SCHEDULED: 'blue',
  IN_PROGRESS: 'orange',
  COMPLETED: 'teal',
  VALIDATED: 'green',
  CANCELLED: 'red',
};

/** A work order's status, its color by lifecycle step (text in the page's color: AA). */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation('workorders');
  return (
    <Badge
      variant="light"
      color={COLORS[status] ?? 'gray'}
      size={size}
      radius="sm"
      styles={{ label: { color: 'var(--mantine-color-text)' } }}
      data-testid="wo-status"
      data-status={status}
    >
      {t(`common:workOrderStatus.${status}`, { defaultValue: status })}
    </Badge>
  );
}
