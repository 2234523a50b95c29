import { Badge, type BadgeProps, Group, Tooltip } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { eventKey } from '../errors.ts';
import type { LogStatus } from '../search.ts';

type Tone = 'teal' | 'red' | 'gray' | 'blue';

/**
 * A light badge whose text keeps a 4.5:1 contrast (WCAG AA) in both color schemes (Mantine's
 * light variant puts small bold text on a tint too dark for it).
 */
export function ToneBadge({
  color,
  children,
  ...rest
}: { color: Tone; children: ReactNode } & Omit<BadgeProps, 'color' | 'variant'> &
  Omit<ComponentPropsWithoutRef<'div'>, 'color' | 'style' | 'children'>) {
  return (
    <Badge
      variant="light"
      color={color}
      {...rest}
      styles={{
        root: {
          background: `light-dark(var(--mantine-color-${color}-0), var(--mantine-color-${color}-light))`,
          textTransform: 'none',
        },
        label: { color: `light-dark(var(--mantine-color-${color}-9), var(--mantine-color-${color}-1))` },
      }}
    >
      {children}
    </Badge>
  );
}

const TONE: Record<LogStatus, Tone> = { pending: 'blue', delivered: 'teal', failed: 'red' };

export function DeliveryStatusBadge({ status }: { status: LogStatus }) {
  const { t } = useTranslation('webhooks');
  return (
    <ToneBadge color={TONE[status]} data-testid="delivery-status" data-status={status}>
      {t(`log.badge.${status}`)}
    </ToneBadge>
  );
}

/** The event types of a subscription, each with its meaning on hover. */
export function EventTypes({ types }: { types: readonly string[] }) {
  const { t } = useTranslation('webhooks');
  return (
    <Group gap={4} wrap="wrap">
      {types.map((type) => (
        <Tooltip key={type} label={t(eventKey(type), { defaultValue: type })} withArrow>
          <ToneBadge color="blue" ff="monospace" tabIndex={0}>
            {type}
          </ToneBadge>
        </Tooltip>
      ))}
    </Group>
  );
}
