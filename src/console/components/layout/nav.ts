/** The navigation of the shell, grouped by the spec's business domains. */
import {
  IconBox,
  IconBuildingFactory2,
  IconCertificate,
  IconListDetails,
  IconMapPin,
  IconUsers,
} from '@tabler/icons-react';

export interface NavItem {
  /** key in the `common` namespace (nav.*) */
  label: string;
  to: string;
  icon: typeof IconUsers;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  {
    label: 'nav.referentials',
    items: [
      { label: 'nav.customers', to: '/referentials/customers', icon: IconUsers },
      { label: 'nav.sites', to: '/referentials/sites', icon: IconMapPin },
      { label: 'nav.assets', to: '/referentials/assets', icon: IconBuildingFactory2 },
    ],
  },
  {
    label: 'nav.businessOrganization',
    items: [
      { label: 'nav.items', to: '/catalog/items', icon: IconBox },
      { label: 'nav.skills', to: '/staff/skills', icon: IconCertificate },
      { label: 'nav.characteristics', to: '/staff/characteristics', icon: IconListDetails },
    ],
  },
];

/** Label of a path segment in the breadcrumbs (the segment itself for codes). */
export const SEGMENT_LABELS: Record<string, string> = {
  referentials: 'nav.referentials',
  customers: 'nav.customers',
  sites: 'nav.sites',
  assets: 'nav.assets',
  catalog: 'nav.businessOrganization',
  staff: 'nav.businessOrganization',
  items: 'nav.items',
  skills: 'nav.skills',
  characteristics: 'nav.characteristics',
  new: 'crumbs.new',
  edit: 'crumbs.edit',
};

/** Section segments have no page of their own: shown, not linked. */
export const SECTION_SEGMENTS = new Set(['referentials', 'catalog', 'staff']);
