/** Scheduling adds `work_orders.crew_code` (migration 033); its Kysely type: */
export interface SchedulingTables {
  work_orders: { crew_code: string | null };
}
