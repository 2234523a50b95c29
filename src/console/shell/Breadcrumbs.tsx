import { Breadcrumbs as MBreadcrumbs, Text } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '../components/links.tsx';
import { HOME_PATH } from '../routes/paths.ts';
import { crumbsOf } from './nav.ts';

/** Where the page sits, from its path and the navigation: section › list › record › action. */
export function Breadcrumbs({ recordName }: { recordName: string | null }) {
  const { t } = useTranslation('common');
  const pathname = useLocation({ select: (l) => l.pathname });
  // The page's name for its record stands for the code (or uuid) of the path.
  const crumbs = crumbsOf(pathname).map((c, i) =>
    recordName && i === 2 && !c.translate ? { ...c, label: recordName } : c,
  );
  return (
    <nav aria-label={t('crumbs.label')} data-testid="breadcrumbs" style={{ minWidth: 0 }}>
      <MBreadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'nowrap', overflow: 'hidden' } }}>
        <AnchorLink to={HOME_PATH} size="sm">
          {t('nav.home')}
        </AnchorLink>
        {crumbs.map((c, i) => {
          const label = c.translate ? t(c.label) : c.label;
          const last = i === crumbs.length - 1;
          return c.link ? (
            <AnchorLink key={c.label} {...c.link} size="sm">
              {label}
            </AnchorLink>
          ) : (
            <Text
              key={c.label}
              size="sm"
              c={last ? undefined : 'dimmed'}
              fw={last ? 600 : undefined}
              aria-current={last ? 'page' : undefined}
              truncate
            >
              {label}
            </Text>
          );
        })}
      </MBreadcrumbs>
    </nav>
  );
}
