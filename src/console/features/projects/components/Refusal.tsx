/**
 * What the service answered when it refused a link, a move or a dependency: each error once
 * (in the console's words when it read it, else the service's), the errorReference to quote,
 * and a close button. Shown above the
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
  /** What the console read out of some of the messages, in its words (e.g. an overlap's dates). */
  details?: ReactNode;
  /** The codes whose messages `details` says: not printed again (their raw job references and UTC times). */
  explained?: readonly string[];
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
  const all = refusalMessages(refusal.error, t('errors.network'));
  const messages = all.filter((m) => !refusal.explained?.includes(m.code));
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
      data-codes={all.map((m) => m.code).join(' ')}
    >
      <Stack gap={6}>
        {refusal.details}
        {/* The service's own words for what the console did not read. */}
        {messages.map((m) => (
          <Text key={`${m.code}:${m.message}`} size="sm" data-testid="refusal-message" data-code={m.code}>
            {m.message}
          </Text>
        ))}
        {reference && <CopyReference reference={reference} />}
      </Stack>
    </Alert>
  );
}
