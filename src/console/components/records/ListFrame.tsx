import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A list page: its header and filters on top, the table below taking the rest of the
 * window's height (and no more: the table scrolls inside, the page does not).
 */
export function ListFrame({ children }: { children: ReactNode }) {
  return (
    <Stack
      gap="md"
      style={{
        height: 'calc(100dvh - var(--app-shell-header-offset, 60px) - var(--app-shell-padding, 16px) * 2)',
        minHeight: 420,
      }}
      data-testid="list-frame"
    >
      {children}
    </Stack>
  );
}
