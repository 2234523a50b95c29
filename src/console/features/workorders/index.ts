/**
 * What other features may use of the Work orders feature (its public face; the rest is
 * its own): the route templates, for links to a work order or a technician's day.
 */
export { workordersPaths } from './paths.ts';
