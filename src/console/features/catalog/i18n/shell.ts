/**
 * The Catalog strings the shell shows before any page of the feature loads (navigation,
 * Home cards, palette groups), in every language. The rest is in en.ts / fr.ts.
 */
export const shell = {
  en: {
    nav: {
      section: 'Business organization',
      items: 'Items',
      skills: 'Skills',
      characteristics: 'Characteristics',
    },
    entity: { item: 'item', skill: 'skill', characteristic: 'characteristic' },
    home: {
      items: 'The item catalog: parts, labour and services with their prices.',
      skills: 'Skills that technicians hold and work needs.',
      characteristics: 'Characteristics of technicians, read from the staff referential.',
    },
  },
  fr: {
    nav: {
      section: 'Organisation',
      items: 'Articles',
      skills: 'Compétences',
      characteristics: 'Caractéristiques',
    },
    entity: { item: 'article', skill: 'compétence', characteristic: 'caractéristique' },
    home: {
      items: 'Le catalogue : pièces, main-d’œuvre et prestations avec leurs prix.',
      skills: 'Les compétences des techniciens et celles que demandent les interventions.',
      characteristics: 'Les caractéristiques des techniciens, lues dans le référentiel du personnel.',
    },
  },
} as const;
