/**
 * A record page before its record is shown: the placeholder while it loads, and "no such
 * record" (a 404: unknown, or outside the caller's offices) with the way back to its list.
 */
import { SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../layout/EmptyState.tsx';

export function RecordSkeleton() {
  return (
    <Stack gap="md" aria-busy>
      <Skeleton height={40} width={320} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton height={180} />
        <Skeleton height={180} />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * `back(label, icon)` renders the typed link to the list (a ButtonLink the caller builds:
 * links are typed by the route tree, which this shared part does not name).
 */
export function RecordNotFound({
  title,
  body,
  back,
}: {
  title?: ReactNode;
  body: ReactNode;
  back: (label: string, icon: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <EmptyState
      title={title ?? t('record.notFoundTitle')}
      body={body}
      action={back(t('record.backToList'), <IconArrowLeft size={16} />)}
    />
  );
}
