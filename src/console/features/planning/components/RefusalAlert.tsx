/**
 * The refusals no input takes: each sentence with its code, and the errorReference to copy
 * (the planner's search, the schedule confirmation and the work order's planning panel).
 */
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyReference } from '../../../app/errorSurface.tsx';
import type { ServiceError } from '../../../components/forms/serviceErrors.ts';
import { errorSentence } from '../errorFields.ts';

export function RefusalAlert({
  refusal,
  items,
  title,
  intro,
  testId,
}: {
  refusal: ServiceError;
  items: readonly ServiceError['errors'][number][];
  title: string;
  /** A sentence before the items (shown even without any). */
  intro?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation('planning');
  if (items.length === 0 && !refusal.errorReference && !intro) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={18} />}
      title={title}
      role="alert"
      data-testid={testId}
    >
      <Stack gap={4}>
        {intro && <Text size="sm">{intro}</Text>}
        {items.map((e) => (
          <Text key={e.code} size="sm">
            {errorSentence(t, e)}{' '}
            <Text span size="xs" c="dimmed" ff="monospace">
              ({e.code})
            </Text>
          </Text>
        ))}
        {refusal.errorReference && <CopyReference reference={refusal.errorReference} />}
      </Stack>
    </Alert>
  );
}
