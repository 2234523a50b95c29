/** Pages shown outside the shell: signed out, and a sign-in that failed. */
import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconLogin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { startSignIn } from '../../auth/oauth.ts';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-8))">
      <Stack w={420} gap="lg">
        <Group justify="center" gap={10} aria-hidden>
          <div className="brand-mark">F</div>
          <Text fw={700} size="xl">
            Fieldwork
          </Text>
        </Group>
        <Paper withBorder radius="md" p="xl" shadow="xs">
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}

export function SignedOutPage() {
  const { t } = useTranslation('common');
  return (
    <Frame>
      <main>
        <Stack gap="sm" data-testid="signed-out">
          <Title order={1} size="h3">
            {t('signedOut.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('signedOut.body')}
          </Text>
          <Button
            mt="sm"
            leftSection={<IconLogin size={16} />}
            onClick={() => void startSignIn('/')}
            data-testid="sign-in-again"
          >
            {t('signedOut.signIn')}
          </Button>
        </Stack>
      </main>
    </Frame>
  );
}

export function SignInFailedPage({ error }: { error: Error }) {
  const { t } = useTranslation('common');
  return (
    <Frame>
      <main>
        <Stack gap="sm">
          <Title order={1} size="h3">
            {t('signIn.failedTitle')}
          </Title>
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {error.message}
          </Alert>
          <Button mt="sm" onClick={() => void startSignIn('/')}>
            {t('signIn.retry')}
          </Button>
        </Stack>
      </main>
    </Frame>
  );
}
