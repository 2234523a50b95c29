/**
 * The Webhooks feature (spec: Webhooks, Events, Delivery rules; issue 13): the signed-in
 * user's subscriptions to event callbacks (at most 3), their creation, deletion, delivery
 * log, replay and test event.
 */
import { IconWebhook } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { webhooksPaths as paths } from './paths.ts';
import { webhooksRoutes } from './routes.ts';

export const webhooks = defineFeature({
  id: 'webhooks',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [
    {
      id: 'webhooks',
      label: 'webhooks:nav.section',
      order: 90,
      items: [
        {
          label: 'webhooks:nav.subscriptions',
          to: paths.subscription.list,
          icon: IconWebhook,
          resource: 'subscription',
          requires: 'webhooks:write',
        },
      ],
    },
  ],
  resources: [
    {
      key: 'subscription',
      label: { one: 'webhooks:entity.subscription', many: 'webhooks:nav.subscriptions' },
      list: { path: '/rest/ws/webhooks/v1/subscriptions' },
      paths: paths.subscription,
      write: 'webhooks:write',
      home: { description: 'webhooks:home.subscriptions' },
    },
  ],
  routes: webhooksRoutes,
});
