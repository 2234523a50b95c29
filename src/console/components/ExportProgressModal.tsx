/**
 * The dialog of a CSV export while its pages are read: the progress, what the export says
 * beside it (a rate-limit wait), and Cancel. Closing it cancels too.
 */
import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function ExportProgressModal({
  opened,
  onCancel,
  title,
  progress,
  value,
  children,
  cancelLabel,
  cancelTestId,
}: {
  opened: boolean;
  onCancel: () => void;
  title: string;
  /** The rows read so far, in words (the bar's label too). */
  progress: string;
  /** Percent done; undefined when the total is unknown (a full, animated bar). */
  value?: number;
  /** Shown below the progress (e.g. the wait after a 429). */
  children?: ReactNode;
  cancelLabel: string;
  cancelTestId?: string;
}) {
  const { t } = useTranslation();
  const unknown = value === undefined;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('form.close') }}
      opened={opened}
      onClose={onCancel}
      title={title}
      closeOnClickOutside={false}
      centered
    >
      <Stack gap="sm">
        <Progress value={value ?? 100} animated={unknown} striped={unknown} aria-label={progress} />
        <Text size="sm" data-testid="export-progress">
          {progress}
        </Text>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-testid={cancelTestId}>
            {cancelLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
