import { Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconMapOff } from '@tabler/icons-react';
import { useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/links.tsx';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const pathname = useLocation({ select: (l) => l.pathname });
  return (
    <Center mih="60vh" data-testid="not-found">
      <Stack align="center" gap="sm" maw={520}>
        <IconMapOff size={56} stroke={1.2} color="var(--mantine-color-dimmed)" aria-hidden />
        <Text c="dimmed" fw={700} size="sm">
          404
        </Text>
        <Title order={1} size="h2" ta="center">
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('notFound.body', { path: pathname })}
        </Text>
        <ButtonLink to="/" leftSection={<IconArrowLeft size={16} />} mt="sm">
          {t('notFound.home')}
        </ButtonLink>
      </Stack>
    </Center>
  );
}
