import { z } from 'zod';
import { Code, DateInput, DateTimeInput } from '../../../contract/common.ts';
import { WorkingHoursEntry } from '../../../contract/rostering.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer, importOffice } from '../../platform/importer.ts';
import { isTimeZone } from './calendar.ts';
import { putArea, putCrew, putTechnician } from './service.ts';

const TechnicianRow = z.strictObject({
  technicianCode: Code(CATALOG_CODE_MAX),
  name: z.string().min(1).max(256),
  officeCode: Code(256),
  skills: z.array(Code(CATALOG_CODE_MAX)).max(200).optional(),
  active: z.boolean().optional(),
  home: z
    .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullish(),
  timeZone: z.string().refine(isTimeZone, 'an IANA time zone such as Europe/Paris').optional(),
  workingHours: z.array(WorkingHoursEntry).max(100).optional(),
  absences: z
    .array(
      z
        .strictObject({ start: DateTimeInput, end: DateTimeInput })
        .refine((a) => a.start < a.end, { message: 'start must be before end', path: ['end'] }),
    )
    .max(1000)
    .optional(),
  capacity: z
    .strictObject({
      maxWorkOrdersPerDay: z.number().int().min(0).max(1000).optional(),
      maxMinutesPerDay: z.number().int().min(0).max(1440).optional(),
    })
    .optional(),
  areas: z.array(Code(CATALOG_CODE_MAX)).max(200).optional(),
});

const AreaRow = z.strictObject({
  areaCode: Code(CATALOG_CODE_MAX),
  name: z.string().min(1).max(256),
  zipCodes: z.array(z.string().trim().min(1).max(20)).max(10_000),
});

const Participation = z
  .strictObject({ technicianCode: Code(CATALOG_CODE_MAX), from: DateInput, to: DateInput.nullish() })
  .refine((p) => !p.to || p.from <= p.to, { message: 'to must not precede from', path: ['to'] });

const CrewRow = z.strictObject({
  crewCode: Code(CATALOG_CODE_MAX),
  mainResource: Participation,
  secondaryResources: z.array(Participation).max(500).optional(),
  disabledAt: DateInput.nullish(),
});

/**
 * Keys `areas` (before the technicians that name them), `technicians` (field resources,
 * after the offices and the skills they name) and `crews` (after their technicians).
 */
export const rosteringImporters: Importer[] = [
  importer({
    key: 'areas',
    order: 290,
    schema: AreaRow,
    keyOf: (r) => r.areaCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `area ${r.areaCode}`,
        (r) => putArea(trx, r),
      ),
  }),
  importer({
    key: 'technicians',
    order: 300,
    schema: TechnicianRow,
    keyOf: (r) => r.technicianCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `technician ${r.technicianCode}`,
        async ({ officeCode, ...r }) =>
          putTechnician(trx, { ...r, officeId: await importOffice(trx, officeCode) }),
      ),
  }),
  importer({
    key: 'crews',
    order: 305,
    schema: CrewRow,
    keyOf: (r) => r.crewCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `crew ${r.crewCode}`,
        (r) => putCrew(trx, r),
      ),
  }),
];
