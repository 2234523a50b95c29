/**
 * The Work orders strings the shell shows before any page of the feature loads (navigation,
 * Home cards, palette groups), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: { section: 'Field service', workOrders: 'Work orders', technicians: 'Technicians' },
    entity: { workOrder: 'work order', technician: 'technician' },
    home: {
      workOrders: 'Work orders of your offices: their activities and used items, validation and deletion.',
      technicians: "Technicians of your offices and each one's day on the ground, position by position.",
    },
    palette: { byUuid: 'Open the work order with this uuid' },
  },
  fr: {
    nav: { section: 'Service terrain', workOrders: 'Interventions', technicians: 'Techniciens' },
    entity: { workOrder: 'intervention', technician: 'technicien' },
    home: {
      workOrders:
        'Les interventions de vos agences : leurs activités et articles utilisés, validation et suppression.',
      technicians:
        'Les techniciens de vos agences et la journée de chacun sur le terrain, position par position.',
    },
    palette: { byUuid: "Ouvrir l'intervention de cet uuid" },
  },
} as const;
