import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A light badge whose text keeps a 4.5:1 contrast (WCAG AA) in both color schemes: Mantine's
 * light variant puts small bold text on a tint too dark for it (teal, red): a paler tint here.
 */
export function StatusBadge({
  color,
  children,
  ...rest
}: { color: 'teal' | 'red' | 'gray' | 'blue'; children: ReactNode } & Omit<BadgeProps, 'color' | 'variant'>) {
  return (
    <Badge
      variant="light"
      color={color}
      {...rest}
      styles={{
        root: {
          background: `light-dark(var(--mantine-color-${color}-0), var(--mantine-color-${color}-light))`,
        },
        label: { color: `light-dark(var(--mantine-color-${color}-9), var(--mantine-color-${color}-1))` },
        section: { color: `light-dark(var(--mantine-color-${color}-9), var(--mantine-color-${color}-1))` },
      }}
    >
      {children}
    </Badge>
  );
}
