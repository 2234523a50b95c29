import type { Db } from '../../db/index.ts';

/** Writes the schedule and the SCHEDULED status of one work order. */
export async function writeSchedule(
  db: Db,
  id: string,
  s: { technicianCode: string; crewCode: string | null; start: Date },
): Promise<void> {
  await db
    .updateTable('work_orders')
    .set({
      technician_code: s.technicianCode,
      crew_code: s.crewCode,
      scheduled_start: s.start,
      status: 'SCHEDULED',
      last_update: new Date(),
    })
    .where('id', '=', id)
    .execute();
}
