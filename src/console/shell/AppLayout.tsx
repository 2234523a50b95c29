/**
 * The shell around every page: header (navigation toggle, name, breadcrumbs, search,
 * language, theme, account) and the navbar grouped by business domain.
 */
import {
  ActionIcon,
  AppShell,
  Avatar,
  Badge,
  Burger,
  Button,
  Group,
  Kbd,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHome, IconLanguage, IconLogout, IconMoon, IconSearch, IconSun } from '@tabler/icons-react';
import { Link, useLocation } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useScopes } from '../app/Can.tsx';
import { knownRoles } from '../app/permissions.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { hasUnsavedChanges, LeaveDialog, releaseUnsavedChanges } from '../components/forms/unsavedGuard.tsx';
import { RecordNameContext } from '../components/records/recordName.tsx';
import { LANGUAGES, type Language, setLanguage } from '../i18n/index.ts';
import { HOME_PATH } from '../routes/paths.ts';
import { LiveStatus } from '../shared/live/LiveStatus.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { navFor, titleOf } from './nav.ts';
import { openPalette, PaletteLauncher } from './PaletteLauncher.tsx';

export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useLocation({ select: (l) => l.pathname });
  const [recordName, setRecordName] = useState<string | null>(null);
  const nav = navFor(useScopes());
  // Every route its title: the record and the page, then the console (issue 27, 9).
  useEffect(() => {
    // Names of kinds are lower case in sentences ("customer"): a title part starts upper case.
    const upperFirst = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);
    const parts = titleOf(pathname, recordName).map((p) => (p.translate ? upperFirst(t(p.label)) : p.label));
    document.title = [...parts, t('appName')].join(' · ');
  }, [pathname, recordName, t]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <a href="#main" className="skip-link">
        {t('skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" gap="md" wrap="nowrap" justify="space-between">
          <Group gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
            <Link to={HOME_PATH} className="brand-link" aria-label={t('nav.home')}>
              <div className="brand-mark" aria-hidden>
                F
              </div>
              <Text fw={700} size="lg" visibleFrom="xs" component="span">
                {t('appName')}
              </Text>
            </Link>
            <Breadcrumbs recordName={recordName} />
          </Group>
          {/* The controls keep their size; a long breadcrumb gives way (it ends in an ellipsis). */}
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <LiveStatus />
            <Button
              variant="default"
              size="sm"
              leftSection={<IconSearch size={16} />}
              rightSection={<Kbd size="xs">Ctrl K</Kbd>}
              onClick={() => void openPalette()}
              visibleFrom="md"
              c="dimmed"
              fw={400}
              data-testid="open-palette"
            >
              {t('header.search')}
            </Button>
            <ActionIcon
              variant="default"
              size="lg"
              hiddenFrom="md"
              onClick={() => void openPalette()}
              aria-label={t('header.searchHint')}
            >
              <IconSearch size={18} />
            </ActionIcon>
            <LanguageMenu />
            <ThemeToggle />
            <AccountMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('nav.label')}>
        <AppShell.Section grow component={ScrollArea}>
          <NavLink
            component={Link}
            to={HOME_PATH}
            label={t('nav.home')}
            leftSection={<IconHome size={18} stroke={1.5} />}
            active={pathname === '/'}
            onClick={close}
            mb="sm"
          />
          {nav.map((group) => (
            // A group of links, not a landmark: the page's own sections keep their names unique.
            <Stack key={group.id} gap={2} mb="md" role="group" aria-labelledby={`nav-group-${group.id}`}>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4} id={`nav-group-${group.id}`}>
                {t(group.label)}
              </Text>
              {group.items.map((item) => (
                <NavLink
                  key={item.to}
                  component={Link}
                  to={item.to}
                  label={t(item.label)}
                  leftSection={<item.icon size={18} stroke={1.5} />}
                  active={pathname === item.to || pathname.startsWith(`${item.to}/`)}
                  onClick={close}
                />
              ))}
            </Stack>
          ))}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main" tabIndex={-1}>
        <RecordNameContext.Provider value={setRecordName}>
          <div className="page">{children}</div>
        </RecordNameContext.Provider>
      </AppShell.Main>
      <PaletteLauncher />
    </AppShell>
  );
}

function LanguageMenu() {
  const { t, i18n } = useTranslation('common');
  const current = (i18n.resolvedLanguage ?? 'en') as Language;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size="sm"
          px="xs"
          leftSection={<IconLanguage size={16} />}
          aria-label={`${t('header.language')}: ${t(`languages.${current}`)}`}
          data-testid="language-menu"
        >
          {current.toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('header.language')}</Menu.Label>
        {LANGUAGES.map((lng) => (
          <Menu.Item
            key={lng}
            onClick={() => void setLanguage(lng)}
            lang={lng}
            fw={lng === current ? 600 : undefined}
            aria-current={lng === current ? 'true' : undefined}
            data-testid={`language-${lng}`}
          >
            {t(`languages.${lng}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function ThemeToggle() {
  const { t } = useTranslation('common');
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const label = scheme === 'dark' ? t('header.theme.toLight') : t('header.theme.toDark');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
        aria-label={label}
        data-testid="theme-toggle"
      >
        {scheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

function AccountMenu() {
  const { t } = useTranslation('common');
  const { me, signOut } = useAuth();
  // Unsaved edits: ask before anything is revoked; "Stay" leaves the page as it is.
  const [asking, setAsking] = useState(false);
  const requestSignOut = () => {
    if (hasUnsavedChanges()) setAsking(true);
    else void signOut();
  };
  return (
    <>
      <LeaveDialog
        opened={asking}
        action="signOut"
        onStay={() => setAsking(false)}
        onLeave={() => {
          setAsking(false);
          releaseUnsavedChanges();
          void signOut();
        }}
      />
      <Menu position="bottom-end" withinPortal width={220}>
        <Menu.Target>
          <UnstyledButton
            aria-label={t('header.account')}
            data-testid="account-menu"
            className="account-button"
          >
            <Group gap={8} wrap="nowrap">
              {/* A person's figure, not initials: "NO" next to the language button read as a language. */}
              <Avatar size={32} radius="xl" color="blue" data-testid="account-avatar" />
              <Stack gap={0} visibleFrom="lg">
                <Text size="sm" fw={600} lh={1.2} data-testid="user-login">
                  {me?.login ?? '…'}
                </Text>
                <Text size="xs" c="dimmed" lh={1.2} data-testid="user-office">
                  {me ? `${me.officeName} · ${me.officeCode}` : ''}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            {me?.login}
            <VisuallyHidden> </VisuallyHidden>
            <Text size="xs" c="dimmed">
              {me ? t('header.office', { code: me.officeCode }) : ''}
            </Text>
          </Menu.Label>
          <Roles roles={me?.roles} />
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={requestSignOut} data-testid="sign-out">
            {t('header.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

/** The user's roles in force (what the console offers follows them: app/permissions.ts). */
function Roles({ roles }: { roles: readonly string[] | undefined }) {
  const { t } = useTranslation('common');
  const known = knownRoles(roles);
  if (known.length === 0) return null;
  return (
    <Menu.Label data-testid="user-roles">
      {t('permissions.roles')}
      <VisuallyHidden>: </VisuallyHidden>
      <Group gap={4} mt={4}>
        {known.map((r) => (
          <Badge key={r} variant="light" size="sm" data-role={r} style={{ textTransform: 'none' }}>
            {t(`permissions.role.${r}`)}
          </Badge>
        ))}
      </Group>
    </Menu.Label>
  );
}
