/**
 * The Referentials feature (spec: Referentials): customers, sites and assets, each with a
 * list, a detail page, a creation and an edit form. The pages are generic over the entity;
 * what differs per entity is declared once in resources.tsx (list and detail) and forms.tsx
 * (form), loaded with the pages.
 */
import { IconBuildingFactory2, IconMapPin, IconUsers } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { referentialPaths as paths } from './paths.ts';
import { referentialRoutes } from './routes.ts';

const LIST = '/eTech/rest/ws/referentials/v1';

export const referentials = defineFeature({
  id: 'referentials',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  uses: ['customFields'],
  nav: [
    {
      id: 'referentials',
      label: 'referentials:nav.section',
      order: 10,
      items: [
        {
          label: 'referentials:nav.customers',
          to: paths.customer.list,
          icon: IconUsers,
          resource: 'customer',
        },
        { label: 'referentials:nav.sites', to: paths.site.list, icon: IconMapPin, resource: 'site' },
        {
          label: 'referentials:nav.assets',
          to: paths.asset.list,
          icon: IconBuildingFactory2,
          resource: 'asset',
        },
      ],
    },
  ],
  resources: [
    {
      key: 'customer',
      label: { one: 'referentials:entity.customer', many: 'referentials:nav.customers' },
      list: { path: `${LIST}/customers` },
      paths: paths.customer,
      write: 'referentials:write',
      home: { description: 'referentials:home.customers' },
    },
    {
      key: 'site',
      label: { one: 'referentials:entity.site', many: 'referentials:nav.sites' },
      list: { path: `${LIST}/sites` },
      paths: paths.site,
      write: 'referentials:write',
      home: { description: 'referentials:home.sites' },
    },
    {
      key: 'asset',
      label: { one: 'referentials:entity.asset', many: 'referentials:nav.assets' },
      list: { path: `${LIST}/assets` },
      paths: paths.asset,
      write: 'referentials:write',
      home: { description: 'referentials:home.assets' },
    },
  ],
  routes: referentialRoutes,
});
