import { Anchor, Breadcrumbs as MBreadcrumbs, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { SECTION_SEGMENTS, SEGMENT_LABELS } from './nav.ts';

/** Where the page sits, from its path: section › list › record › action. */
export function Breadcrumbs() {
  const { t } = useTranslation('common');
  const pathname = useLocation({ select: (l) => l.pathname });
  const segments = pathname.split('/').filter(Boolean);
  const crumbs = segments.map((seg, i) => {
    const to = `/${segments.slice(0, i + 1).join('/')}`;
    const key = SEGMENT_LABELS[seg];
    const label = key ? t(key) : decodeURIComponent(seg);
    // Linked: known list pages, and record codes under them; not sections or unknown paths.
    const known = (!!key && !SECTION_SEGMENTS.has(seg)) || (i > 0 && !!SEGMENT_LABELS[segments[i - 1]]);
    return { to, label, link: known && i < segments.length - 1 };
  });
  return (
    <nav aria-label={t('crumbs.label')} data-testid="breadcrumbs" style={{ minWidth: 0 }}>
      <MBreadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'nowrap', overflow: 'hidden' } }}>
        <Anchor component={Link} to="/" size="sm">
          {t('nav.home')}
        </Anchor>
        {crumbs.map((c, i) =>
          c.link ? (
            <Anchor key={c.to} component={Link} to={c.to} size="sm">
              {c.label}
            </Anchor>
          ) : (
            <Text
              key={c.to}
              size="sm"
              c={i === crumbs.length - 1 ? undefined : 'dimmed'}
              fw={i === crumbs.length - 1 ? 600 : undefined}
              aria-current={i === crumbs.length - 1 ? 'page' : undefined}
              truncate
            >
              {c.label}
            </Text>
          ),
        )}
      </MBreadcrumbs>
    </nav>
  );
}
