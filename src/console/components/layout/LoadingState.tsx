import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Placeholder rows while a page loads; announced to screen readers once. */
export function LoadingState({ rows = 4, label }: { rows?: number; label?: string }) {
  const { t } = useTranslation('common');
  return (
    <Stack gap="sm" aria-busy="true" data-testid="loading-state">
      <VisuallyHidden role="status">{label ?? t('loading')}</VisuallyHidden>
      <Skeleton height={28} width="40%" radius="sm" />
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
        <Skeleton key={i} height={18} radius="sm" width={`${90 - i * 8}%`} />
      ))}
    </Stack>
  );
}
