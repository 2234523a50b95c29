/**
 * Page furniture of the Referentials pages. PROVISIONAL thin wrappers: they become the
 * foundation's PageHeader / EmptyState / ErrorState once `src/console/components/` lands.
 */
import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../components/formKit.tsx';

export function Header({
  title,
  subtitle,
  actions,
  badge,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  badge?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap">
      <Stack gap={2}>
        <Group gap="sm" align="center">
          <Title order={1} size="h2">
            {title}
          </Title>
          {badge}
        </Group>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

export function EmptyBlock({ title, body, action }: { title: string; body: string; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="empty-state">
      <Center>
        <Stack align="center" gap="xs" maw={460}>
          <IconInbox size={40} stroke={1.4} color="var(--mantine-color-dimmed)" aria-hidden />
          <Text fw={600}>{title}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {body}
          </Text>
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}

export function ErrorBlock({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('referentials');
  const e = readServiceError(error);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('form.errorTitle')}
      role="alert"
    >
      <Stack gap={4}>
        {e.errors.map((x) => (
          <Text key={x.code} size="sm">
            {x.message}
          </Text>
        ))}
        {e.errorReference && (
          <Text size="xs" c="dimmed">
            {t('form.errorReference', { ref: e.errorReference })}
          </Text>
        )}
        {onRetry && (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('detail.retry')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
