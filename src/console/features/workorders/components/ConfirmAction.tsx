/**
 * An action the service offers on a work order (validate, delete), run after a confirmation.
 * A refusal shows inside the dialog, translated from its code, with the errorReference.
 */

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError, type ServiceError } from '../../../components/forms/serviceErrors.ts';

export function serviceErrorText(t: TFunction, err: { code: string; message: string }) {
  return t(`workorders:serverErrors.${err.code.replace(/\./g, '_')}`, { defaultValue: err.message });
}

export function ConfirmAction({
  opened,
  title,
  body,
  confirm,
  color,
  onClose,
  run,
  testId,
}: {
  opened: boolean;
  title: string;
  body: string;
  confirm: string;
  color: string;
  onClose: () => void;
  run: () => Promise<void>;
  testId: string;
}) {
  const { t } = useTranslation('workorders');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServiceError | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
      close();
    } catch (e) {
      setError(readServiceError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common:form.close') }}
      data-testid={testId}
    >
      <Stack gap="md">
        <Text size="sm">{body}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert" data-testid={`${testId}-error`}>
            <Stack gap={4}>
              {error.errors.map((e) => (
                <Text key={e.code} size="sm" data-code={e.code}>
                  {serviceErrorText(t, e)}
                </Text>
              ))}
              {error.errorReference && (
                <Text size="xs" c="dimmed">
                  {t('errors.reference', { reference: error.errorReference })}
                </Text>
              )}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button color={color} loading={busy} onClick={() => void go()} data-testid={`${testId}-confirm`}>
            {confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
