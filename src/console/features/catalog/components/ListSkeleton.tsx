import { Skeleton, Stack } from '@mantine/core';

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

/** Placeholder rows while a list loads. */
export function ListSkeleton({ rows = 8, label }: { rows?: number; label: string }) {
  return (
    <Stack gap={6} aria-busy aria-label={label} data-testid="loading-state">
      {KEYS.slice(0, rows).map((k) => (
        <Skeleton key={k} height={36} radius="sm" />
      ))}
    </Stack>
  );
}
