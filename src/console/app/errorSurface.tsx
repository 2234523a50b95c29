/**
 * The global error surface: a notification for unexpected failures (5xx, no answer,
 * a bug), with the errorReference to quote to support and a button to copy it.
 */
import { Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { ApiError, NetworkError } from '../../client/index.ts';
import { i18n } from '../i18n/index.ts';

export function CopyReference({ reference }: { reference: string }) {
  const t = i18n.t.bind(i18n);
  return (
    // In a narrow panel the button goes under the reference, never cut ("Copy refer…").
    <Group gap="xs" wrap="wrap" style={{ rowGap: 0 }}>
      <Text size="xs" c="dimmed">
        {t('errors.reference')}:
      </Text>
      <Text size="xs" ff="monospace" data-testid="error-reference" style={{ wordBreak: 'break-all' }}>
        {reference}
      </Text>
      <CopyButton value={reference}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={copy}
            style={{ flexShrink: 0 }}
            leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
          >
            {copied ? t('errors.copied') : t('errors.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Shows one unexpected error (deduplicated by reference). */
export function reportUnexpected(error: unknown) {
  const t = i18n.t.bind(i18n);
  const network = error instanceof NetworkError;
  const reference = error instanceof ApiError ? error.errorReference : null;
  const message = network ? t('errors.network') : error instanceof Error ? error.message : String(error);
  notifications.show({
    id: reference ?? (network ? 'network-error' : undefined),
    color: 'red',
    title: network ? t('errors.networkTitle') : t('errors.unexpectedTitle'),
    autoClose: network ? 8000 : false,
    withBorder: true,
    message: (
      <Stack gap={4} data-testid="global-error">
        <Text size="sm">{message}</Text>
        {reference && <CopyReference reference={reference} />}
      </Stack>
    ),
  });
}
