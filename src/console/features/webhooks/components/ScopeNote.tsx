import { Alert, Text } from '@mantine/core';
import { IconUserShield } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { SUBSCRIPTION_LIMIT } from '../model.ts';

/**
 * Whose subscriptions these are. The console signs in as a user, and the service keeps a
 * console user's subscriptions under that user (src/server/domains/webhooks/queries.ts,
 * `ownerOf`): their own limit of 3, not shared with other users nor with the OAuth
 * applications; the events of the user's office tree (src/server/events/index.ts).
 */
export function ScopeNote() {
  const { t } = useTranslation('webhooks');
  const { me } = useAuth();
  if (!me) return null;
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconUserShield size={18} />}
      title={t('scope.title', { login: me.login })}
      data-testid="scope-note"
    >
      <Text size="sm">{t('scope.body', { limit: SUBSCRIPTION_LIMIT })}</Text>
      <Text size="sm" mt={4}>
        {t('scope.office', { office: me.officeName, code: me.officeCode })}
      </Text>
    </Alert>
  );
}
