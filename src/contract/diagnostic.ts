/**
 * Diagnostic (spec: "Scheduling and diagnostic" paths; issue 12): flags and notes of a work
 * order, named by code (the live one) or uuid, and an extension that reads them back.
 *
 * Flags PUT `{ids: [flagId]}` replaces the work order's flags (an empty list clears them).
 * Notes PUT `.../notes/code:{noteCode}` holds exactly one of `content` (a text) or
 * `reportFields` (an object of report field codes to a text, number, boolean or null):
 * the spec's "content property with a report-fields alternative".
 */
import { z } from 'zod';
import { CODE_PATTERN, Code, Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/eTech/rest/ws/diagnostic/v1';
export const DIAGNOSTIC = 'diagnostic';
export const FLAGS = 'diagnostic.flags';
export const NOTES = 'diagnostic.notes';

export const DiagnosticCodes = {
  workOrderNotFound: 'diagnostic.workorder.notfound',
  workOrderAmbiguous: 'diagnostic.workorder.code.ambiguous',
  flagsUnknown: 'diagnostic.flags.ids.unknown',
  /** Neither content nor reportFields. */
  noteMandatory: 'diagnostic.notes.content.mandatory',
  /** Both content and reportFields. */
  noteConflict: 'diagnostic.notes.content.conflict',
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(DIAGNOSTIC),
} as const;

export const FlagsBody = z
  .strictObject({ ids: z.array(z.number().int().min(0).max(2_147_483_647)).max(500) })
  .meta({ id: 'FlagsBody' });
export type FlagsBody = z.input<typeof FlagsBody>;

export const ReportFieldValue = z.union([z.string().max(10000), z.number(), z.boolean(), z.null()]);
export const NoteBody = z
  .strictObject({
    content: z.string().max(100_000).nullish(),
    // Checked as a whole, so that any problem answers `diagnostic.notes.reportfields.invalid`.
    reportFields: z
      .record(z.string(), z.unknown())
      .refine(
        (r) =>
          Object.keys(r).length <= 200 &&
          Object.entries(r).every(
            ([k, v]) => k.length <= 200 && CODE_PATTERN.test(k) && ReportFieldValue.safeParse(v).success,
          ),
        `at most 200 fields; codes of ${'letters, digits, "-", "_", "."'}; values text, number, boolean or null`,
      )
      .transform((r) => r as Record<string, z.output<typeof ReportFieldValue>>)
      .nullish(),
  })
  .meta({ id: 'NoteBody' });
export type NoteBody = z.input<typeof NoteBody>;

export const Flag = z.object({ flagId: z.number().int(), label: z.string() }).meta({ id: 'Flag' });
export const Note = z
  .object({
    noteCode: z.string(),
    content: z.string().nullable(),
    reportFields: z.record(z.string(), ReportFieldValue).nullable(),
    lastUpdate: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Note' });
export const WorkOrderDiagnostic = z
  .object({ workOrderCode: z.string(), uuid: z.string(), flags: z.array(Flag), notes: z.array(Note) })
  .meta({ id: 'WorkOrderDiagnostic' });
export type WorkOrderDiagnostic = z.infer<typeof WorkOrderDiagnostic>;

const byCode = { workOrderCode: Code(200) };
const byUuid = { workOrderUuid: z.uuid().transform((u) => u.toLowerCase()) };
const notFound = { 404: [DiagnosticCodes.workOrderNotFound] };
const validation = (prefix: string) => [
  derivedCode.invalidJson(prefix),
  derivedCode.fieldUnknown(prefix),
  `${prefix}.code.mandatory`,
];

function flagsPut<P extends z.ZodType>(id: string, path: string, params: P) {
  return endpoint({
    id,
    method: 'PUT',
    path,
    domain: 'diagnostic',
    range: 'standard',
    summary: 'Replaces the flags of the work order (`ids`: flag ids; unknown ids are refused). 204.',
    errorPrefix: FLAGS,
    params,
    body: FlagsBody,
    responses: { 204: undefined },
    errors: {
      400: [
        DiagnosticCodes.flagsUnknown,
        DiagnosticCodes.workOrderAmbiguous,
        `${FLAGS}.ids.invalid`,
        ...validation(FLAGS),
      ],
      ...notFound,
    },
  });
}
export const putFlagsByCode = flagsPut(
  'diagnostic.flags.put.code',
  `${BASE}/workOrders/code:{workOrderCode}/flags`,
  z.object(byCode),
);
export const putFlagsByUuid = flagsPut(
  'diagnostic.flags.put.uuid',
  `${BASE}/workOrders/uuid:{workOrderUuid}/flags`,
  z.object(byUuid),
);

function notesPut<P extends z.ZodType>(id: string, path: string, params: P) {
  return endpoint({
    id,
    method: 'PUT',
    path,
    domain: 'diagnostic',
    range: 'standard',
    summary:
      'Creates (201) or replaces (204) the note `noteCode` of the work order: exactly one of `content` (text) ' +
      'or `reportFields` (report field code to text, number, boolean or null).',
    errorPrefix: NOTES,
    params,
    body: NoteBody,
    responses: { 201: undefined, 204: undefined },
    errors: {
      400: [
        DiagnosticCodes.noteMandatory,
        DiagnosticCodes.noteConflict,
        DiagnosticCodes.workOrderAmbiguous,
        `${NOTES}.content.invalid`,
        `${NOTES}.reportfields.invalid`,
        ...validation(NOTES),
      ],
      ...notFound,
    },
  });
}
export const putNoteByCode = notesPut(
  'diagnostic.notes.put.code',
  `${BASE}/workOrders/code:{workOrderCode}/notes/code:{noteCode}`,
  z.object({ ...byCode, noteCode: Code(200) }),
);
export const putNoteByUuid = notesPut(
  'diagnostic.notes.put.uuid',
  `${BASE}/workOrders/uuid:{workOrderUuid}/notes/code:{noteCode}`,
  z.object({ ...byUuid, noteCode: Code(200) }),
);

function diagnosticGet<P extends z.ZodType>(id: string, path: string, params: P) {
  return endpoint({
    id,
    method: 'GET',
    path,
    domain: 'diagnostic',
    range: 'high',
    summary: 'The flags (with labels) and notes of the work order, for the console.',
    errorPrefix: DIAGNOSTIC,
    params,
    responses: { 200: WorkOrderDiagnostic },
    errors: { 400: [DiagnosticCodes.workOrderAmbiguous, `${DIAGNOSTIC}.code.mandatory`], ...notFound },
    extension: true,
  });
}
export const getDiagnosticByCode = diagnosticGet(
  'diagnostic.workOrders.get.code',
  `${BASE}/workOrders/code:{workOrderCode}`,
  z.object(byCode),
);
export const getDiagnosticByUuid = diagnosticGet(
  'diagnostic.workOrders.get.uuid',
  `${BASE}/workOrders/uuid:{workOrderUuid}`,
  z.object(byUuid),
);

export const FLAGS_PAGE_SIZE = 500;
export const listFlags = endpoint({
  id: 'diagnostic.flags.list',
  method: 'GET',
  path: `${BASE}/flags`,
  domain: 'diagnostic',
  range: 'standard',
  summary: `The flags a work order may carry (loaded by import), by id, ${FLAGS_PAGE_SIZE} a page.`,
  errorPrefix: DIAGNOSTIC,
  query: z.strictObject({ continuationToken: z.string().optional() }),
  responses: { 200: Page(Flag).meta({ id: 'FlagPage' }) },
  errors: { 400: [DiagnosticCodes.continuationTokenInvalid, derivedCode.fieldUnknown(DIAGNOSTIC)] },
  extension: true,
});

/** The diagnostic endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const diagnosticEndpoints = {
  putFlagsByCode,
  putFlagsByUuid,
  putNoteByCode,
  putNoteByUuid,
  getDiagnosticByCode,
  getDiagnosticByUuid,
  listFlags,
};
