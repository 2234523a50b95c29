/** Rules of the rostering domain: technicians (field resources). */
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../platform/errors.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { unknownSkills, upsertTechnician } from './queries.ts';

export interface TechnicianInput {
  technicianCode: string;
  name: string;
  officeId: string;
  skills?: string[];
  active?: boolean;
  home?: { latitude: number; longitude: number } | null;
}

/** Creates or replaces a technician; every skill must exist in the staff catalog. */
export async function putTechnician(trx: Db, t: TechnicianInput): Promise<WriteOutcome> {
  const skills = [...new Set(t.skills ?? [])].sort();
  const unknown = await unknownSkills(trx, skills);
  if (unknown.length)
    throw badRequest('rostering.technician.skill.unknown', `Unknown skill ${unknown.join(', ')}`);
  return upsertTechnician(trx, {
    code: t.technicianCode,
    name: t.name,
    office_id: t.officeId,
    skills,
    active: t.active ?? true,
    home_latitude: t.home?.latitude ?? null,
    home_longitude: t.home?.longitude ?? null,
  });
}
