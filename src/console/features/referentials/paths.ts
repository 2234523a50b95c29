/**
 * Route templates of the Referentials pages: the routes (routes.ts), every link and the
 * navigation use these, so a path is written once. `$code` is the record's code.
 */
export const referentialPaths = {
  customer: {
    list: '/referentials/customers',
    new: '/referentials/customers/new',
    detail: '/referentials/customers/$code',
    edit: '/referentials/customers/$code/edit',
  },
  site: {
    list: '/referentials/sites',
    new: '/referentials/sites/new',
    detail: '/referentials/sites/$code',
    edit: '/referentials/sites/$code/edit',
  },
  asset: {
    list: '/referentials/assets',
    new: '/referentials/assets/new',
    detail: '/referentials/assets/$code',
    edit: '/referentials/assets/$code/edit',
  },
} as const;

export type ReferentialEntity = keyof typeof referentialPaths;
export const REFERENTIAL_ENTITIES = Object.keys(referentialPaths) as ReferentialEntity[];
