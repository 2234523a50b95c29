/**
 * Route templates of the Webhooks pages: the routes, every link and the navigation use
 * these. `$code` is a subscription id (a uuid).
 */
export const webhooksPaths = {
  subscription: {
    list: '/webhooks',
    new: '/webhooks/new',
    detail: '/webhooks/$code',
  },
} as const;
