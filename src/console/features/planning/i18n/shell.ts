/**
 * The planning strings the shell shows before any page of the feature loads (navigation,
 * Home), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: { section: 'Rostering and scheduling', planner: 'Planner', crews: 'Crews' },
    home: {
      planner: 'Find the slots where a technician can do a work order, and schedule it.',
      crews: 'The crews active over a period and the days each member takes part.',
    },
    tab: { workOrder: 'Schedule, flags and notes' },
  },
  fr: {
    nav: { section: 'Planification', planner: 'Planificateur', crews: 'Équipes' },
    home: {
      planner: 'Trouver les créneaux où un technicien peut faire une intervention, et la planifier.',
      crews: 'Les équipes actives sur une période et les jours où chaque membre participe.',
    },
    tab: { workOrder: 'Planification, indicateurs et notes' },
  },
} as const;
