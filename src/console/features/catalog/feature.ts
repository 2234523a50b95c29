/**
 * The Catalog feature (spec: Business organization and Staff): the items (list, page,
 * creation, edit, CSV import and export), the skills (list, edited in a dialog) and the
 * characteristics (read-only list).
 */
import { IconBox, IconCertificate, IconListDetails } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { catalogPaths as paths } from './paths.ts';
import { catalogRoutes } from './routes.ts';

export const catalog = defineFeature({
  id: 'catalog',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  uses: ['customFields'],
  nav: [
    {
      id: 'businessOrganization',
      label: 'catalog:nav.section',
      order: 20,
      items: [
        { label: 'catalog:nav.items', to: paths.item.list, icon: IconBox, resource: 'item' },
        { label: 'catalog:nav.skills', to: paths.skill.list, icon: IconCertificate, resource: 'skill' },
        {
          label: 'catalog:nav.characteristics',
          to: paths.characteristic.list,
          icon: IconListDetails,
          resource: 'characteristic',
        },
      ],
    },
  ],
  resources: [
    {
      key: 'item',
      label: { one: 'catalog:entity.item', many: 'catalog:nav.items' },
      list: { path: '/eTech/rest/ws/businessOrganization/v1/items' },
      paths: paths.item,
      write: 'businessOrganization:write',
      home: { description: 'catalog:home.items' },
    },
    {
      key: 'skill',
      label: { one: 'catalog:entity.skill', many: 'catalog:nav.skills' },
      list: { path: '/eTech/rest/ws/staff/v1/skills' },
      paths: paths.skill,
      home: { description: 'catalog:home.skills' },
    },
    {
      key: 'characteristic',
      label: { one: 'catalog:entity.characteristic', many: 'catalog:nav.characteristics' },
      list: { path: '/eTech/rest/ws/staff/v1/characteristics' },
      paths: paths.characteristic,
      home: { description: 'catalog:home.characteristics' },
    },
  ],
  routes: catalogRoutes,
});
