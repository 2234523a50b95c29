import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServiceErrorAlert } from '../../../components/forms/ServiceErrorAlert.tsx';
import { readServiceError, type ServiceError } from '../../../components/forms/serviceErrors.ts';
import { serviceErrorText } from '../errors.ts';
import { notify } from '../notify.ts';
import { useDeleteSubscription } from '../queries.ts';
import type { Subscription } from '../transport.ts';

/**
 * "Delete this subscription?": what stops and what goes with it (pending callbacks, the
 * log), Keep it (focused first) or Delete. A subscription already gone counts as deleted.
 */
export function DeleteSubscriptionDialog({
  subscription,
  onClose,
  onDeleted,
}: {
  /** The subscription to delete; null: the dialog is closed. */
  subscription: Subscription | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const remove = useDeleteSubscription();
  const [error, setError] = useState<ServiceError | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };

  const confirm = async () => {
    if (!subscription) return;
    setError(null);
    const url = subscription.callbackUrl;
    try {
      await remove.mutateAsync(subscription.subscriptionId);
      notify(t, {
        color: 'teal',
        title: t('delete.deletedTitle'),
        message: t('delete.deleted', { url }),
      });
    } catch (e) {
      const read = readServiceError(e);
      if (read.status !== 404) {
        setError(read);
        return;
      }
      notify(t, { color: 'gray', title: t('delete.deletedTitle'), message: t('delete.gone') });
    }
    close();
    onDeleted?.();
  };

  return (
    <Modal
      opened={subscription !== null}
      onClose={close}
      title={t('delete.title')}
      closeButtonProps={{ 'aria-label': t('delivery.close') }}
      centered
      data-testid="delete-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t('delete.body')}</Text>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {subscription?.callbackUrl}
        </Code>
        {error && (
          <ServiceErrorAlert
            errors={error.errors}
            errorReference={error.errorReference}
            explain={(e) => serviceErrorText(t, e)}
            title={t('common:errors.unexpectedTitle')}
            closeLabel={t('common:form.close')}
          />
        )}
      </Stack>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={close} data-autofocus>
          {t('delete.cancel')}
        </Button>
        <Button
          color="red"
          leftSection={<IconTrash size={16} />}
          loading={remove.isPending}
          onClick={() => void confirm()}
          data-testid="delete-confirm"
        >
          {t('delete.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
