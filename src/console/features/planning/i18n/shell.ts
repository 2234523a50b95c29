/**
 * The planning strings the shell shows before any page of the feature loads (navigation,
 * Home), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: { section: 'Rostering and scheduling', planner: 'Planner', crews: 'Crews' },
  },
  fr: {
    nav: { section: 'Planification', planner: 'Planificateur', crews: 'Équipes' },
  },
} as const;
