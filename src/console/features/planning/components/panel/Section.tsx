/** A titled card of the work order panel. */
import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
