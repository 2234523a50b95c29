/** A line of figures above a grid (from the totals extensions: never summed in the browser). */
import { Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

export function TotalsBar({
  loading,
  children,
  label,
  testId,
}: {
  loading: boolean;
  children: ReactNode;
  label: string;
  testId: string;
}) {
  return (
    <Paper withBorder radius="md" px="md" py={6} style={{ flexShrink: 0 }} aria-label={label} role="group">
      {loading ? (
        <Skeleton height={34} />
      ) : (
        <Group gap="xl" wrap="wrap" data-testid={testId}>
          {children}
        </Group>
      )}
    </Paper>
  );
}
