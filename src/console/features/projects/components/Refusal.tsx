/**
 * What the service answered when it refused a link, a move or a dependency: its messages
 * (every error it found), the errorReference to quote, and a close button. Shown above the
 * linker until the next action or until closed; read out by screen readers (role alert).
 */
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../../../../client/index.ts';
import { CopyReference } from '../../../components/layout/index.ts';

export interface Refusal {
  title: string;
  error: unknown;
  /** What the console adds under the messages (e.g. an overlap's dates). */
  details?: ReactNode;
}

/** The messages of what a call threw (the service's, else the network's or the error's). */
export function refusalMessages(error: unknown, network: string): { code: string; message: string }[] {
  if (error instanceof ApiError)
    return error.errors.map((e) => ({ code: e.code, message: e.message || e.code }));
  if (error instanceof NetworkError) return [{ code: 'network', message: network }];
  return [{ code: 'error', message: error instanceof Error ? error.message : String(error) }];
}

export function RefusalAlert({ refusal, onClose }: { refusal: Refusal; onClose: () => void }) {
  const { t } = useTranslation('common');
  const messages = refusalMessages(refusal.error, t('errors.network'));
  const reference = refusal.error instanceof ApiError ? refusal.error.errorReference : null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={refusal.title}
      withCloseButton
      closeButtonLabel={t('form.close')}
      onClose={onClose}
      role="alert"
      data-testid="refusal"
    >
      <Stack gap={6}>
        {refusal.details}
        {/* The service's own words; below the console's reading of them when there is one. */}
        {messages.map((m) => (
          <Text
            key={`${m.code}:${m.message}`}
            size={refusal.details ? 'xs' : 'sm'}
            data-testid="refusal-message"
            data-code={m.code}
          >
            {m.message}
          </Text>
        ))}
        {reference && <CopyReference reference={reference} />}
      </Stack>
    </Alert>
  );
}
