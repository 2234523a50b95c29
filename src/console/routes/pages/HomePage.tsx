/**
 * Home: who and where you are, each area of the console with how many records it holds
 * (exact up to 10,000, "more than" above) and its actions, and the offices of your tree:
 * one call to the service (plus who you are, read once by the shell).
 */
import { Badge, Card, Group, List, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBulb, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../app/api.ts';
import { HOME_PATH, type HomeAnswer } from '../../app/apiPaths.ts';
import { Can, useScopes } from '../../app/Can.tsx';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { PageHeader } from '../../components/layout/PageHeader.tsx';
import { ButtonLink } from '../../components/links.tsx';
import { type NavEntry, navFor, resourceByKey } from '../../shell/nav.ts';

/**
 * Home's figures, one call for the whole page (the console's home extension): the count of
 * every kind the user may read, and its offices. An instance without it: no figures.
 */
function useHome() {
  const api = useApi();
  return useQuery({
    queryKey: ['home'],
    queryFn: ({ signal }) => api.raw<HomeAnswer>('GET', HOME_PATH, { signal }),
    retry: false,
    staleTime: 60_000,
  });
}

function Count({ kind }: { kind: string }) {
  const { t } = useTranslation('common');
  const home = useHome();
  const figure = home.data?.counts.find((c) => c.kind === kind);
  return home.isPending ? (
    <Skeleton height={20} width={70} radius="xl" />
  ) : (
    <Badge
      variant="light"
      color={figure ? 'blue' : 'gray'}
      style={{ textTransform: 'none', flexShrink: 0, overflow: 'visible' }}
    >
      {!figure
        ? t('home.recordsUnknown')
        : figure.more
          ? t('home.recordsMore', { count: figure.count })
          : t('home.records', { count: figure.count })}
    </Badge>
  );
}

/** One navigation entry: its count (first page of its list) and its actions. */
function AreaCard({ item }: { item: NavEntry }) {
  const { t } = useTranslation('common');
  const resource = resourceByKey(item.resource);
  const create = resource && 'new' in resource.paths ? resource.paths.new : undefined;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-area">
      {/* The title takes the room its longest word needs, then what the count leaves; the
          count goes under it when both cannot fit, so no word is cut between two lines. */}
      <Group justify="space-between" align="flex-start" gap="xs" mb="xs">
        <Group gap="sm" wrap="nowrap" style={{ flex: '1 1 0' }}>
          <ThemeIcon variant="light" size="lg" radius="md">
            <item.icon size={20} stroke={1.6} />
          </ThemeIcon>
          <Text fw={600} component="h3" m={0} size="md" style={{ overflowWrap: 'break-word' }}>
            {t(item.label)}
          </Text>
        </Group>
        {resource && <Count kind={resource.key} />}
      </Group>
      {(resource?.home?.description ?? item.description) && (
        <Text size="sm" c="dimmed" mb="md" style={{ flexGrow: 1 }}>
          {t(resource?.home?.description ?? item.description ?? '')}
        </Text>
      )}
      <Group gap="xs">
        <ButtonLink to={item.to} size="xs" variant="light">
          {resource ? t('home.openList') : t('home.open')}
        </ButtonLink>
        {create && resource?.write && (
          <Can call={resource.write}>
            <ButtonLink to={create} size="xs" variant="subtle" leftSection={<IconPlus size={14} />}>
              {t('home.create')}
            </ButtonLink>
          </Can>
        )}
      </Group>
    </Card>
  );
}

function Offices() {
  const { t } = useTranslation('common');
  const home = useHome();
  if (home.isError) return null;
  return (
    <Paper withBorder radius="md" p="lg">
      <Text fw={600} component="h2" size="md" m={0} mb="sm">
        {t('home.offices')}
      </Text>
      {home.isPending ? (
        <Stack gap={6}>
          <Skeleton height={14} width="60%" />
          <Skeleton height={14} width="50%" />
        </Stack>
      ) : (
        <List spacing={4} size="sm" listStyleType="none" data-testid="home-offices">
          {home.data.offices.map((o) => (
            <List.Item key={o.code} style={{ paddingLeft: o.depth * 16 }}>
              <Text span ff="monospace" size="xs" c="dimmed" mr={8}>
                {o.code}
              </Text>
              {o.name}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

export function HomePage() {
  const { t } = useTranslation('common');
  const { me } = useAuth();
  const scopes = useScopes();
  return (
    <Stack gap="xl">
      <PageHeader
        title={me ? t('home.title', { login: me.login }) : t('nav.home')}
        subtitle={me ? t('home.subtitle', { office: me.officeName, code: me.officeCode }) : undefined}
      />
      {navFor(scopes).map((group) => (
        <section key={group.id} aria-labelledby={`home-group-${group.id}`}>
          <Text
            fw={700}
            size="xs"
            tt="uppercase"
            c="dimmed"
            mb="sm"
            component="h2"
            id={`home-group-${group.id}`}
          >
            {t(group.label)}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {group.items.map((item) => (
              <AreaCard key={item.to} item={item} />
            ))}
          </SimpleGrid>
        </section>
      ))}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Offices />
        <Paper withBorder radius="md" p="lg">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" color="yellow" radius="md">
              <IconBulb size={18} />
            </ThemeIcon>
            <Stack gap={4}>
              <Text fw={600} component="h2" size="md" m={0}>
                {t('home.tipTitle')}
              </Text>
              <Text size="sm" c="dimmed">
                {t('home.tip', { keys: 'Ctrl + K' })}
              </Text>
            </Stack>
          </Group>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
