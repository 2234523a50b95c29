/**
 * Route templates of the planning pages (spec: Rostering and Scheduling): the routes, every
 * link and the navigation use these.
 */
export const planningPaths = {
  planner: '/rostering/planner',
  crews: '/rostering/crews',
} as const;
