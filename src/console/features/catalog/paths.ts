/**
 * Route templates of the Catalog pages (items; skills and characteristics of the staff
 * referential): the routes, every link and the navigation use these. `$code` is an item code.
 */
export const catalogPaths = {
  item: {
    list: '/catalog/items',
    new: '/catalog/items/new',
    detail: '/catalog/items/$code',
    edit: '/catalog/items/$code/edit',
  },
  skill: { list: '/staff/skills' },
  characteristic: { list: '/staff/characteristics' },
} as const;
