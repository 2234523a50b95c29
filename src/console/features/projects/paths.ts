/**
 * Route templates of the Project management pages: the routes (routes.ts), every link and
 * the navigation use these, so a path is written once. `$code` is the project's or the
 * service order's code.
 */
export const projectPaths = {
  project: { list: '/projects', detail: '/projects/$code' },
  standard: { list: '/serviceorders/standard', detail: '/serviceorders/standard/$code' },
  route: { list: '/serviceorders/route', detail: '/serviceorders/route/$code' },
} as const;

/** The two kinds of service order the linker handles (multi-equipment ones are not linked). */
export type ServiceOrderKind = 'standard' | 'route';
