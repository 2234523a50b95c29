/**
 * The Referentials strings the shell shows before any page of the feature loads
 * (navigation, Home cards, palette groups), in every language. The rest of the namespace
 * is in en.ts / fr.ts, loaded with the pages.
 */
export const shell = {
  en: {
    nav: { section: 'Referentials', customers: 'Customers', sites: 'Sites', assets: 'Assets' },
    entity: { customer: 'customer', site: 'site', asset: 'asset' },
    home: {
      customers: 'The companies and people you work for, with their contacts and addresses.',
      sites: 'Places where work happens, attached to a customer.',
      assets: 'Equipment installed on sites, with their hierarchy.',
    },
  },
  fr: {
    nav: { section: 'Référentiels', customers: 'Clients', sites: 'Sites', assets: 'Équipements' },
    entity: { customer: 'client', site: 'site', asset: 'équipement' },
    home: {
      customers: 'Les entreprises et personnes pour qui vous travaillez, avec contacts et adresses.',
      sites: "Les lieux d'intervention, rattachés à un client.",
      assets: 'Les équipements installés sur les sites, avec leur hiérarchie.',
    },
  },
} as const;
