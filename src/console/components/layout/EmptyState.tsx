import { Center, Paper, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Nothing to show yet: what this place is for, and the action that fills it. */
export function EmptyState({
  title,
  body,
  action,
  icon,
}: {
  title: ReactNode;
  body?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="empty-state">
      <Center>
        <Stack align="center" gap="xs" maw={480}>
          {icon ?? <IconInbox size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />}
          <Text fw={600} ta="center">
            {title}
          </Text>
          {body && (
            <Text size="sm" c="dimmed" ta="center">
              {body}
            </Text>
          )}
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}
