import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../../../client/index.ts';
import { CopyReference } from '../../app/errorSurface.tsx';

/**
 * A failed load, in place of the content: the service's messages, the errorReference
 * with a copy button, and a retry. Takes any error (ApiError, NetworkError, other).
 */
export function ErrorState({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const messages =
    error instanceof ApiError
      ? error.errors.map((e) => e.message || e.code)
      : error instanceof NetworkError
        ? [t('errors.network')]
        : [error instanceof Error ? error.message : String(error)];
  const reference = error instanceof ApiError ? error.errorReference : null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={title ?? t('errors.loadFailed')}
      role="alert"
      data-testid="error-state"
    >
      <Stack gap={6}>
        {messages.map((m) => (
          <Text key={m} size="sm">
            {m}
          </Text>
        ))}
        {reference && <CopyReference reference={reference} />}
        {onRetry && (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('errors.retry')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
