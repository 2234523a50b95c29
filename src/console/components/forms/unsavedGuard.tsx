import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from '@tanstack/react-router';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Unsaved-changes guard: while the form is dirty, an in-app navigation (links, back button)
 * is held by the router's blocker and a dialog asks; closing or reloading the tab lets the
 * browser ask (beforeunload). `release()` lets the next navigation through (after a save).
 */
export function useUnsavedGuard(dirty: boolean) {
  const released = useRef(false);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !released.current,
    enableBeforeUnload: () => dirty && !released.current,
    withResolver: true,
  });
  return {
    blocker,
    release: () => {
      released.current = true;
    },
  };
}

/** The dialog of the unsaved-changes guard; "Stay" is focused first. */
export function UnsavedChangesDialog({
  blocker,
}: {
  blocker: ReturnType<typeof useUnsavedGuard>['blocker'];
}) {
  const { t } = useTranslation('common');
  const opened = blocker.status === 'blocked';
  return (
    <Modal
      opened={opened}
      onClose={() => blocker.reset?.()}
      title={t('unsaved.title')}
      closeButtonProps={{ 'aria-label': t('unsaved.close') }}
      centered
      data-testid="unsaved-dialog"
    >
      <Text size="sm">{t('unsaved.confirm')}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {t('unsaved.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()} data-testid="unsaved-leave">
          {t('unsaved.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
