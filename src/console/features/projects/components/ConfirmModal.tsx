import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks before a change the user may not expect (taking a work order from elsewhere, removing a dependency). */
export function ConfirmModal({
  opened,
  title,
  body,
  confirm,
  color = 'blue',
  busy = false,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  title: string;
  body: ReactNode;
  confirm: string;
  color?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('common');
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('form.close') }}
      data-testid="confirm-modal"
    >
      <Stack gap="md">
        <Text size="sm" component="div">
          {body}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('form.cancel')}
          </Button>
          <Button color={color} onClick={onConfirm} loading={busy} data-autofocus data-testid="confirm">
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
