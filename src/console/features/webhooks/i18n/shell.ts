/**
 * The Webhooks strings the shell shows before any page of the feature loads (navigation,
 * Home card, palette group), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: { section: 'Webhooks', subscriptions: 'Subscriptions' },
    entity: { subscription: 'subscription' },
    home: {
      subscriptions:
        'Event callbacks to your systems: asset changes, work orders deleted, validated or scheduled.',
    },
  },
  fr: {
    nav: { section: 'Webhooks', subscriptions: 'Abonnements' },
    entity: { subscription: 'abonnement' },
    home: {
      subscriptions:
        'Les événements envoyés à vos systèmes : équipements modifiés, interventions supprimées, validées ou planifiées.',
    },
  },
} as const;
