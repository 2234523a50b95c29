/**
 * The Project management strings the shell shows before any page of the feature loads
 * (navigation, Home cards, palette groups), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: {
      section: 'Project management',
      projects: 'Projects',
      standard: 'Service orders',
      route: 'Route service orders',
    },
    entity: { project: 'project', standard: 'service order', route: 'route service order' },
    home: {
      projects: 'Order a project’s jobs and link their dependencies on a graph.',
      standard: 'Order the work orders a service order tracks, up to its maximum.',
      route: 'Order the visits of a route.',
    },
  },
  fr: {
    nav: {
      section: 'Gestion de projet',
      projects: 'Projets',
      standard: 'Ordres de service',
      route: 'Tournées',
    },
    entity: { project: 'projet', standard: 'ordre de service', route: 'tournée' },
    home: {
      projects: 'Ordonner les éléments d’un projet et lier leurs dépendances sur un graphe.',
      standard: 'Ordonner les interventions que suit un ordre de service, jusqu’à son maximum.',
      route: 'Ordonner les visites d’une tournée.',
    },
  },
} as const;
