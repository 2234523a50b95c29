import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Tone = 'blue' | 'teal' | 'gray' | 'red' | 'orange';

/**
 * A light badge whose text keeps a 4.5:1 contrast (WCAG AA) in both color schemes (a paler
 * tint than Mantine's light variant under small bold text).
 */
export function ToneBadge({
  tone,
  children,
  ...rest
}: { tone: Tone } & Omit<BadgeProps, 'color' | 'variant'>) {
  return (
    <Badge
      variant="light"
      color={tone}
      radius="sm"
      {...rest}
      styles={{
        root: {
          background: `light-dark(var(--mantine-color-${tone}-0), var(--mantine-color-${tone}-light))`,
          textTransform: 'none',
        },
        label: { color: `light-dark(var(--mantine-color-${tone}-9), var(--mantine-color-${tone}-1))` },
      }}
    >
      {children}
    </Badge>
  );
}

const TONES: Record<string, Tone> = {
  inProgress: 'blue',
  open: 'teal',
  completed: 'gray',
  validated: 'gray',
};

/** A project's or service order's status (`inProgress`, `completed`, `open`, `validated`). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('projects');
  return (
    <ToneBadge tone={TONES[status] ?? 'gray'} data-testid="status-badge">
      {t(`status.${status}`, { defaultValue: status })}
    </ToneBadge>
  );
}

/** A work order's status (NEW, SCHEDULED, COMPLETED...), as the service names it. */
export function WorkOrderStatusBadge({ status }: { status: string }) {
  const done = ['COMPLETED', 'VALIDATED', 'CANCELLED'].includes(status);
  return (
    <ToneBadge tone={done ? 'gray' : status === 'NEW' ? 'teal' : 'blue'} size="sm">
      {status}
    </ToneBadge>
  );
}
