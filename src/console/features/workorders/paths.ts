/**
 * Route templates of the Work orders pages: the routes (routes.ts), every link and the
 * navigation use these, so a path is written once. `$code` is a work order's code (by
 * uuid: its uuid) or a technician's code.
 */
export const workordersPaths = {
  workOrder: {
    list: '/workorders',
    detail: '/workorders/$code',
    /** The same page, the work order named by uuid (a code may be carried by several). */
    uuid: '/workorders/uuid/$code',
  },
  /** Technicians have a top-level path: under /workorders they would shadow a code. */
  technician: {
    list: '/technicians',
    detail: '/technicians/$code',
  },
} as const;
