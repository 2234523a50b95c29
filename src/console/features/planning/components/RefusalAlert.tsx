/**
 * The refusals no input takes: each sentence with its code, and the errorReference to copy
 * (the schedule confirmation and the work order's planning panel).
 */
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyReference } from '../../../app/errorSurface.tsx';
import type { ServiceError } from '../../../components/forms/serviceErrors.ts';
import { errorSentence } from '../errorFields.ts';

export function RefusalAlert({
  refusal,
  items,
  title,
}: {
  refusal: ServiceError;
  items: ServiceError['errors'];
  title: string;
}) {
  const { t } = useTranslation('planning');
  if (items.length === 0 && !refusal.errorReference) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={title} role="alert">
      <Stack gap={4}>
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
