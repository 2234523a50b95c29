import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Forms with unsaved changes, for what leaves the page outside the router (signing out):
 * it asks first, and lets the forms go only once the user chose to lose their changes.
 */
interface OpenForm {
  dirty: () => boolean;
  release: () => void;
}
const openForms = new Set<OpenForm>();

/** True while a form on the page has changes that are not saved. */
export function hasUnsavedChanges(): boolean {
  for (const f of openForms) if (f.dirty()) return true;
  return false;
}

/** Lets every open form go without asking (the user chose to lose their changes). */
export function releaseUnsavedChanges() {
  for (const f of openForms) f.release();
}

/**
 * Unsaved-changes guard: while the form is dirty, an in-app navigation (links, back button)
 * is held by the router's blocker and a dialog asks; closing or reloading the tab lets the
 * browser ask (beforeunload); signing out asks too (hasUnsavedChanges). `release()` lets
 * the next navigation through (after a save).
 */
export function useUnsavedGuard(dirty: boolean) {
  const released = useRef(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const form: OpenForm = {
      dirty: () => dirtyRef.current && !released.current,
      release: () => {
        released.current = true;
      },
    };
    openForms.add(form);
    return () => {
      openForms.delete(form);
    };
  }, []);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !released.current,
    enableBeforeUnload: () => dirtyRef.current && !released.current,
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
  return (
    <LeaveDialog
      opened={blocker.status === 'blocked'}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}

/** "Leave without saving?" with Stay (focused first) and Leave; `action` names what leaving does. */
export function LeaveDialog({
  opened,
  onStay,
  onLeave,
  action = 'leave',
}: {
  opened: boolean;
  onStay: () => void;
  onLeave: () => void;
  action?: 'leave' | 'signOut';
}) {
  const { t } = useTranslation('common');
  return (
    <Modal
      opened={opened}
      onClose={onStay}
      title={t(action === 'signOut' ? 'unsaved.signOutTitle' : 'unsaved.title')}
      closeButtonProps={{ 'aria-label': t('unsaved.close') }}
      centered
      data-testid={action === 'signOut' ? 'signout-dialog' : 'unsaved-dialog'}
    >
      <Text size="sm">{t(action === 'signOut' ? 'unsaved.signOutConfirm' : 'unsaved.confirm')}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onStay} data-autofocus data-testid="unsaved-stay">
          {t('unsaved.stay')}
        </Button>
        <Button color="red" onClick={onLeave} data-testid="unsaved-leave">
          {t(action === 'signOut' ? 'unsaved.signOut' : 'unsaved.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
