/**
 * The feature's notifications, looking like the console's others: a named close button
 * and the body in the text color (AA contrast), as components/forms/useSaveWithUndo does.
 */
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

export function notify(
  t: TFunction,
  n: { color: 'teal' | 'red' | 'gray'; title: string; message: ReactNode; testId?: string },
) {
  notifications.show({
    color: n.color,
    title: n.title,
    message: n.message,
    autoClose: n.color === 'red' ? 12_000 : 8_000,
    closeButtonProps: { 'aria-label': t('common:undo.close') },
    styles: { description: { color: 'var(--mantine-color-text)' } },
    'data-testid': n.testId,
  });
}
