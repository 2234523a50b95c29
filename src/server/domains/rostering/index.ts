import type { DomainModule } from '../../platform/domain.ts';
import { rosteringImporters } from './importers.ts';
import { rosteringRoutes } from './routes.ts';
import type { RosteringTables } from './tables.ts';

/** Rostering: technicians (field resources) and their calendars, areas and crews (spec endpoint 6). */
export const rostering: DomainModule<RosteringTables> = {
  name: 'rostering',
  routes: rosteringRoutes,
  importers: rosteringImporters,
  migrations: new URL('./migrations/', import.meta.url),
};

/* The public face: what other domains may use of rostering (biome.json forbids the rest). */
/** The working calendar of a technician: working windows in its time zone, minus what is taken. */
export {
  DAY,
  type Interval,
  localDay,
  localToUtc,
  MINUTE,
  minutesOf,
  subtract,
  type Window,
  workingWindows,
} from './calendar.ts';
/** Technicians and crews as other domains check them (scope, existence, skills). */
export {
  crewWithMembers,
  technicianByCode,
  technicianInScope,
  unknownCodes,
  unknownSkills,
} from './queries.ts';
export type { Absence, WorkingHours } from './tables.ts';
