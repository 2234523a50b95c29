/**
 * Slot search (spec endpoint 5, issue 12): `POST /rest/v3/slots/search`. The request holds
 * exactly the fields; a business rule answers 400 with the spec's error body whose
 * `code` is the business number as a string ("2003"); a body that is not of this shape
 * answers `slots.invalid.json` (wrong type or format) or `slots.field.unknown`.
 */
import { z } from 'zod';
import { Code, DateInput, DateTimeInput, Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';
import { WorkOrderStatus } from './fieldService.ts';
import { TimeOfDay } from './rostering.ts';

export const SLOTS = 'slots';
export const MAXIMUM_SLOT_NUMBER = 700;
export const DEFAULT_SLOT_NUMBER = 50;
export const MAX_PERIOD_WEEKS = 200;
/** Without startingHours, slots start on this grid from the start of the working period. */
export const SLOT_STEP_MINUTES = 30;

/**
 * Every business code, with a message that reads as a sentence (the console shows it next to
 * `field`, the request field it is about).
 */
export const SLOT_ERRORS = {
  '1001': { field: 'workOrderType', message: 'Choose a work order type: it is required.' },
  '1002': {
    field: 'timeRanges',
    message: 'Give at least one time range or an appointment date to search in.',
  },
  '1003': { field: 'zipCode', message: 'The zone filter is on: give the zip code it filters on.' },
  '2001': { field: 'workOrderType', message: 'This work order type does not exist.' },
  '2002': { field: 'offices', message: 'One of these offices does not exist in your office tree.' },
  '2003': { field: 'timeRanges', message: 'The dates are in the past: search from now on.' },
  '2004': { field: 'timeRanges', message: 'The end comes before the start: swap them or fix one.' },
  '2005': { field: 'timeRanges', message: `The search period is longer than ${MAX_PERIOD_WEEKS} weeks.` },
  '2006': { field: 'offices', message: 'Give the offices by codes or by ids, not both.' },
  '2007': { field: 'areas', message: 'One of these areas does not exist.' },
  '2008': {
    field: 'maximumSlotNumber',
    message: `Ask for at most ${MAXIMUM_SLOT_NUMBER} slots.`,
  },
  '2009': { field: 'skills', message: 'Give the skills by codes or by ids, not both.' },
  '2010': { field: 'workOrder', message: 'Name the work order by its code or by its id, not both.' },
  '2011': { field: 'areaScope', message: 'The area scope must be RESOURCE or TIMESLOT.' },
  '2012': {
    field: 'customerPortalUser',
    message: 'A customer portal user cannot be used with the area scope RESOURCE.',
  },
  '2013': {
    field: 'startingHours',
    message: 'Starting hours cannot be used with "first of the day" per resource.',
  },
  '2014': {
    field: 'availabilities',
    message: 'An appointment date cannot be used with "first of the day" per resource.',
  },
  '3011': { field: 'location', message: 'This address could not be located: check the zip code and city.' },
  '3021': {
    field: 'location',
    message: 'The coordinates are out of range: latitude between -90 and 90, longitude between -180 and 180.',
  },
  '3022': { field: 'location', message: 'The coordinates (0, 0) are not a place to work at.' },
  '3031': {
    field: 'location',
    message: 'Travel times and distances cannot be computed for the technicians found (no home location).',
  },
  '3032': { field: 'location', message: 'No road leads from the technicians found to this place.' },
} as const satisfies Record<string, { field: string; message: string }>;
export type SlotErrorCode = keyof typeof SLOT_ERRORS;

/** Codes beyond the spec's numbers (shape, and references the spec gives no number for). */
export const SlotsCodes = {
  invalidJson: derivedCode.invalidJson(SLOTS),
  fieldUnknown: derivedCode.fieldUnknown(SLOTS),
  workOrderNotFound: 'slots.workorder.notfound',
  workOrderAmbiguous: 'slots.workorder.code.ambiguous',
  skillUnknown: 'slots.skill.unknown',
  customerPortalUserUnknown: 'slots.customerportaluser.unknown',
} as const;

const text = (max: number) => z.string().max(max).nullish();
const codeList = z.array(z.string().min(1).max(200)).max(500);

export const SlotSearchRequest = z
  .strictObject({
    workOrderType: z.strictObject({ code: z.string().max(200).nullish() }).nullish(),
    workOrder: z
      .strictObject({ code: z.string().min(1).max(200).nullish(), id: z.string().min(1).max(64).nullish() })
      .nullish()
      .meta({
        description: 'The work order to place: `code` (its business code) or `id` (its uuid), not both',
      }),
    timeRanges: z
      .array(z.strictObject({ start: DateTimeInput, end: DateTimeInput }))
      .max(1000)
      .nullish()
      .meta({ description: 'UTC date-times `YYYY-MM-DDTHH:MM`' }),
    availabilities: z
      .strictObject({ appointmentDate: DateInput.nullish() })
      .nullish()
      .meta({ description: 'appointmentDate: the whole local day of each technician (`YYYY-MM-DD`)' }),
    offices: z
      .strictObject({
        codes: codeList.nullish(),
        ids: z
          .array(z.union([z.number().int(), z.string().regex(/^\d{1,18}$/)]))
          .max(500)
          .nullish(),
      })
      .nullish(),
    skills: z
      .strictObject({ codes: codeList.nullish(), ids: codeList.nullish() })
      .nullish()
      .meta({ description: 'Added to the skills of the type. A skill id is its code on this service.' }),
    areas: z.strictObject({ codes: codeList }).nullish(),
    enableZoneFilter: z.boolean().nullish(),
    zipCode: text(20),
    areaScope: z.string().max(50).nullish().meta({ description: '`RESOURCE` or `TIMESLOT`' }),
    customerPortalUser: z.string().min(1).max(256).nullish(),
    perResource: z.enum(['ALL', 'FIRST_OF_THE_DAY']).nullish(),
    startingHours: z.strictObject({ values: z.array(TimeOfDay).max(96) }).nullish(),
    maximumSlotNumber: z.number().int().min(1).nullish(),
    maximumSlotsPerTechnician: z
      .number()
      .int()
      .min(1)
      .max(MAXIMUM_SLOT_NUMBER)
      .nullish()
      .meta({
        'x-extension': true,
        description:
          'Extension. At most this many slots of one technician in the answer (absent: no cap): the best ' +
          'slots of each technician, so that with maximumSlotNumber the offers spread across technicians ' +
          'instead of all going to the best placed one.',
      }),
    location: z
      .strictObject({
        address: text(10000),
        zipCode: text(20),
        city: text(256),
        country: text(2),
        latitude: z.number().nullish(),
        longitude: z.number().nullish(),
      })
      .nullish(),
    schedulerRequirements: z
      .strictObject({
        workingHours: z.strictObject({ ignoreFieldResourceCapacityModel: z.boolean().nullish() }).nullish(),
      })
      .nullish(),
    explain: z
      .boolean()
      .nullish()
      .meta({
        'x-extension': true,
        description:
          'Extension: true adds `excluded` to the answer, why each technician of the offices searched has no slot ' +
          'in it. Without it the answer is the same as ever.',
      }),
  })
  .meta({ id: 'SlotSearchRequest' });
export type SlotSearchRequest = z.output<typeof SlotSearchRequest>;
export type SlotSearchSent = z.input<typeof SlotSearchRequest>;

/** Where a travel starts or ends: the technician's home or a scheduled work order. */
export const SlotStop = z
  .object({ type: z.enum(['home', 'workOrder']), workOrderCode: z.string().nullable() })
  .meta({ id: 'SlotStop' });
export const Travel = z.object({ minutes: z.number().int(), kilometres: z.number() });

/** Weights of the score (points out of 100). */
export const SCORE_WEIGHTS = { travel: 50, earliness: 30, workload: 20 } as const;
/** Added travel at or beyond this many minutes earns no travel point. */
export const SCORE_TRAVEL_HORIZON_MINUTES = 120;

export const Slot = z
  .object({
    start: z.string().meta({ format: 'date-time' }),
    end: z.string().meta({ format: 'date-time', description: 'start plus the type duration' }),
    technicians: z.array(z.string()),
    travelBefore: Travel.extend({ from: SlotStop }),
    travelAfter: Travel.extend({ to: SlotStop }),
    score: z
      .number()
      .meta({ description: 'Out of 100: the sum of scoreDetails.travel, earliness, workload' }),
    scoreDetails: z
      .object({
        travel: z.number(),
        earliness: z.number(),
        workload: z.number(),
        addedTravelMinutes: z
          .number()
          .int()
          .meta({ description: 'travel before + after - the travel the technician makes without this work' }),
        bookedMinutes: z.number().int().meta({ description: 'minutes already booked that local day' }),
        workingMinutes: z.number().int().meta({ description: 'working minutes of that local day' }),
      })
      .meta({ id: 'SlotScoreDetails' }),
  })
  .meta({ id: 'Slot' });
export type Slot = z.infer<typeof Slot>;

const Span = z.object({
  start: z.string().meta({ format: 'date-time' }),
  end: z.string().meta({ format: 'date-time' }),
});
const LocalDate = z.string().meta({ description: "A local date of the technician's time zone, YYYY-MM-DD" });
const code = z.string();

/**
 * Why a technician has no slot in the answer, closest first: what to draw on their day. The
 * reasons follow the engine's rules in order (inactive, skills, areas, absences, capacity,
 * free time, travel, score).
 */
export const EXCLUSION_REASONS = [
  'outranked',
  'too.far',
  'no.window',
  'capacity.full',
  'area.outside',
  'absent',
  'skill.missing',
  'inactive',
] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

export const ExcludedTechnician = z
  .discriminatedUnion('reason', [
    z.object({
      technicianCode: code,
      reason: z.literal('outranked'),
      detail: z
        .object({ score: z.number(), start: Span.shape.start, end: Span.shape.end })
        .meta({ description: 'Has slots, all after the last one returned: its best one' }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('too.far'),
      detail: z
        .object({
          route: z.enum(['ok', 'none', 'unavailable']).meta({
            description:
              '`none`: no road between their places and the work; `unavailable`: travel cannot be computed (no home)',
          }),
          free: Span.nullable().meta({ description: 'The free time that came closest (route ok)' }),
          freeMinutes: z.number().int().nullable(),
          neededMinutes: z
            .number()
            .int()
            .nullable()
            .meta({ description: 'travel before + work + travel after' }),
          travelBefore: Travel.extend({ from: SlotStop }).nullable(),
          travelAfter: Travel.extend({ to: SlotStop }).nullable(),
        })
        .meta({ description: 'The work would fit their free time without the travel' }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('no.window'),
      detail: z
        .object({
          longestFree: Span.nullable(),
          freeMinutes: z.number().int(),
          durationMinutes: z.number().int(),
        })
        .meta({ description: 'No free time long enough for the work in the period (longest one shown)' }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('capacity.full'),
      detail: z
        .object({
          days: z.array(LocalDate),
          maxWorkOrdersPerDay: z.number().int().nullable(),
          maxMinutesPerDay: z.number().int().nullable(),
        })
        .meta({ description: 'The days at their capacity (work orders or minutes a day)' }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('area.outside'),
      detail: z.object({ areas: z.array(code), days: z.array(LocalDate) }).meta({
        description:
          'areas: the areas the technician covers (none of those searched); days: with area scope TIMESLOT, the ' +
          'days whose work orders lie outside the areas',
      }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('absent'),
      detail: z
        .object({ absences: z.array(Span) })
        .meta({ description: 'The absences covering their working time in the period' }),
    }),
    z.object({
      technicianCode: code,
      reason: z.literal('skill.missing'),
      detail: z.object({ skills: z.array(code) }).meta({ description: 'The skills needed that they lack' }),
    }),
    z.object({ technicianCode: code, reason: z.literal('inactive'), detail: z.object({}) }),
  ])
  .meta({ id: 'SlotExcludedTechnician' });
export type ExcludedTechnician = z.infer<typeof ExcludedTechnician>;

export const SlotSearchResponse = z
  .object({
    slots: z.array(Slot),
    target: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        source: z.enum(['coordinates', 'workOrder', 'gazetteer']),
      })
      .meta({ description: 'Where the work is, and how it was located' }),
    excluded: z
      .array(ExcludedTechnician)
      .optional()
      .meta({
        'x-extension': true,
        description:
          'With `explain: true`: every technician of the offices searched without a slot in the answer, closest first ' +
          `(by reason: ${EXCLUSION_REASONS.join(', ')}; then by how near they came)`,
      }),
  })
  .meta({ id: 'SlotSearchResponse' });
export type SlotSearchResponse = z.infer<typeof SlotSearchResponse>;

export const searchSlots = endpoint({
  id: 'slots.search',
  method: 'POST',
  path: '/rest/v3/slots/search',
  domain: 'slots',
  // The spec states no range: Standard, a search costs more than a record read (High) but is
  // the planner's interactive call, not a bulk list (Low).
  range: 'standard',
  summary:
    'Finds the time ranges in which technicians holding the needed skills can travel from their previous ' +
    'place, do the work and travel to the next one; sorted by score (descending), then start. Business ' +
    'errors answer 400 with `code` the number as a string ("2003"); every error found is listed.',
  errorPrefix: SLOTS,
  shapeErrors: 'invalidJson',
  body: SlotSearchRequest,
  responses: { 200: SlotSearchResponse },
  errors: { 400: [...Object.keys(SLOT_ERRORS), ...Object.values(SlotsCodes)] },
});

/* ---------------- a work order's needs (extension for the planner) ---------------- */

export const WorkOrderNeeds = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    status: WorkOrderStatus,
    officeCode: z.string(),
    workOrderType: z
      .object({
        workOrderTypeCode: z.string(),
        name: z.string(),
        durationMinutes: z.number().int(),
        skills: z.array(z.string()).meta({ description: 'Skill codes a technician must hold, sorted' }),
      })
      .meta({ description: 'The type of the work order: the duration and skills a slot search uses' }),
    location: z
      .object({
        address: z.string().nullable(),
        zipCode: z.string().nullable(),
        city: z.string().nullable(),
        country: z.string().nullable(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
      })
      .meta({ description: 'The place as the work order holds it' }),
    target: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        source: z.enum(['workOrder', 'gazetteer']),
      })
      .nullable()
      .meta({
        description:
          'Where a slot search for this work order places the work: its coordinates, else its address, zip code ' +
          'and city located by the gazetteer; null when it cannot be located (a search without a location answers 3011)',
      }),
  })
  .meta({ id: 'WorkOrderNeeds' });
export type WorkOrderNeeds = z.infer<typeof WorkOrderNeeds>;

export const getWorkOrderNeeds = endpoint({
  id: 'slots.workOrders.needs',
  method: 'GET',
  path: '/rest/v3/slots/workOrders/code:{workOrderCode}/needs',
  domain: 'slots',
  range: 'standard',
  summary:
    'What a slot search for the work order needs: its type (duration, skills), its place and where the search ' +
    'locates it. By code: the live work order of your office tree, else the latest validated one.',
  errorPrefix: SLOTS,
  params: z.object({ workOrderCode: Code(200) }),
  responses: { 200: WorkOrderNeeds },
  errors: {
    400: [
      SlotsCodes.workOrderAmbiguous,
      `${SLOTS}.code.mandatory`,
      derivedCode.invalid(SLOTS, 'workOrderCode'),
    ],
    404: [SlotsCodes.workOrderNotFound],
  },
  extension: true,
});

/* ---------------- feasibility of one placement (extension for the dispatch board) ---------------- */

export const SLOTS_CHECK = 'slots.check';

export const SlotCheckCodes = {
  workOrderMandatory: `${SLOTS_CHECK}.workorder.mandatory`,
  /** Unknown, or outside the caller's office tree (the same answer). */
  workOrderNotFound: SlotsCodes.workOrderNotFound,
  workOrderAmbiguous: SlotsCodes.workOrderAmbiguous,
  /** Unknown, or outside the caller's office tree (the same answer). */
  technicianNotFound: 'slots.technician.notfound',
} as const;

export const SlotCheckRequest = z
  .strictObject({
    workOrder: z
      .strictObject({ code: z.string().min(1).max(200).nullish(), id: z.string().min(1).max(64).nullish() })
      .meta({ description: 'The work order to place: `code` or `id` (its uuid), exactly one' }),
    technicianCode: Code(200),
    start: DateTimeInput.meta({ description: 'Where the work would start (UTC `YYYY-MM-DDTHH:MM`)' }),
  })
  .meta({ id: 'SlotCheckRequest' });
export type SlotCheckSent = z.input<typeof SlotCheckRequest>;

/** Why a placement does not fit, in the order the rules are checked. */
export const CHECK_REASONS = [
  'inactive',
  'skill.missing',
  'absent',
  'capacity.full',
  'no.window',
  'too.far',
] as const;

export const SlotCheck = z
  .object({
    fits: z.boolean(),
    reason: z
      .enum(CHECK_REASONS)
      .optional()
      .meta({
        description:
          'Absent when it fits. inactive; skill.missing; absent (an absence meets the work); capacity.full (the day ' +
          'at its capacity); no.window (outside working hours or over a work order); too.far (the work fits the free ' +
          'time but not with the travel before and after it)',
      }),
    detail: z
      .object({
        skills: z.array(z.string()).optional().meta({ description: 'skill.missing: the skills lacking' }),
        absences: z.array(Span).optional().meta({ description: 'absent: the absences met' }),
        day: LocalDate.optional().meta({ description: 'capacity.full: the local day' }),
        maxWorkOrdersPerDay: z.number().int().nullable().optional(),
        maxMinutesPerDay: z.number().int().nullable().optional(),
        workOrders: z
          .array(z.string())
          .optional()
          .meta({ description: 'no.window: the work orders the work would overlap' }),
        free: Span.nullable()
          .optional()
          .meta({ description: 'no.window, too.far: the free time around the start (null: none)' }),
        neededMinutes: z
          .number()
          .int()
          .optional()
          .meta({ description: 'too.far: travel before + work + travel after' }),
        route: z.enum(['ok', 'none', 'unavailable']).optional().meta({
          description:
            'too.far: `none`, no road to the work; `unavailable`, travel cannot be computed (no home)',
        }),
      })
      .optional(),
    start: Span.shape.start,
    end: Span.shape.end.meta({ description: 'start plus the type duration' }),
    travel: z
      .object({ before: Travel.extend({ from: SlotStop }), after: Travel.extend({ to: SlotStop }) })
      .nullable()
      .meta({
        description:
          'From the place before (the previous work order that day, else home) and on to the next one, when the ' +
          'start lies in free time and the travel can be computed; else null',
      }),
  })
  .meta({ id: 'SlotCheck' });
export type SlotCheck = z.infer<typeof SlotCheck>;

export const checkSlot = endpoint({
  id: 'slots.check',
  method: 'POST',
  path: '/rest/v3/slots/check',
  domain: 'slots',
  // Asked while a planner drags a work order over the board: a cheap read, many a minute.
  range: 'high',
  summary:
    'Would this work order fit this technician at this start? The search rules for one placement (active, ' +
    'skills, absences, capacity, free time, travel), the work order itself left out of their work orders; ' +
    'any start (not only the grid). Does not schedule: the scheduling PUT does.',
  errorPrefix: SLOTS_CHECK,
  body: SlotCheckRequest,
  responses: { 200: SlotCheck },
  errors: {
    400: [
      derivedCode.invalidJson(SLOTS_CHECK),
      derivedCode.fieldUnknown(SLOTS_CHECK),
      derivedCode.mandatory(SLOTS_CHECK, 'technicianCode'),
      derivedCode.invalid(SLOTS_CHECK, 'technicianCode'),
      derivedCode.mandatory(SLOTS_CHECK, 'start'),
      derivedCode.invalid(SLOTS_CHECK, 'start'),
      derivedCode.mandatory(SLOTS_CHECK, 'workOrder'),
      derivedCode.invalid(SLOTS_CHECK, 'code'),
      derivedCode.invalid(SLOTS_CHECK, 'id'),
      '2010',
      '3011',
      ...Object.values(SlotCheckCodes),
    ],
  },
  extension: true,
});

/* ---------------- the dispatch board's read (extension) ---------------- */

export const SLOTS_BOARD = 'slots.board';
export const BOARD_PAGE_SIZE = 100;
export const BOARD_MAX_DAYS = 31;

export const SlotBoardCodes = {
  /** end not after start, or longer than BOARD_MAX_DAYS. */
  periodInvalid: `${SLOTS_BOARD}.period.invalid`,
  /** officeCode names no office of the caller's tree. */
  officeUnknown: `${SLOTS_BOARD}.office.unknown`,
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(SLOTS),
} as const;

export const SlotBoardQuery = z
  .strictObject({
    start: z.string().pipe(DateTimeInput).meta({ description: 'Period start, UTC `YYYY-MM-DDTHH:MM`' }),
    end: z
      .string()
      .pipe(DateTimeInput)
      .meta({ description: `Period end (after start, at most ${BOARD_MAX_DAYS} days later)` }),
    officeCode: Code().optional().meta({ description: 'That office and the offices below it' }),
    skillCode: Code().optional().meta({ description: 'Technicians holding this skill' }),
    areaCode: Code().optional().meta({ description: 'Technicians covering this area' }),
    q: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Text contained in the code or the name (any case)' }),
    active: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .meta({ description: '`true`: active technicians only; `false`: inactive ones only' }),
    continuationToken: z.string().optional(),
  })
  .meta({ id: 'SlotBoardQuery' });
export type SlotBoardQuery = z.output<typeof SlotBoardQuery>;

const BoardTravel = Travel.nullable().meta({
  description: "The engine's road model; null: a place is unknown",
});

export const BoardWorkOrder = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    workOrderTypeCode: z.string(),
    workOrderTypeName: z.string(),
    status: WorkOrderStatus,
    customerCode: z.string().nullable(),
    crewCode: z.string().nullable(),
    start: Span.shape.start,
    end: Span.shape.end,
    location: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    travelBefore: BoardTravel.meta({
      description: 'From the work order before it that local day, else home',
    }),
    travelAfter: BoardTravel.meta({ description: 'On to the next work order that local day, else home' }),
  })
  .meta({ id: 'SlotBoardWorkOrder' });

export const BoardTechnician = z
  .object({
    technicianCode: z.string(),
    name: z.string(),
    officeCode: z.string(),
    active: z.boolean(),
    skills: z.array(z.string()),
    areas: z.array(z.string()),
    timeZone: z.string(),
    home: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    capacity: z.object({
      maxWorkOrdersPerDay: z.number().int().nullable(),
      maxMinutesPerDay: z.number().int().nullable(),
    }),
    workingHours: z.array(Span).meta({ description: 'Working windows overlapping the period, as instants' }),
    absences: z.array(Span).meta({ description: 'Absences overlapping the period' }),
    busy: z.array(Span).meta({
      description: 'Time taken by work orders outside your office tree (shown as busy, nothing more)',
    }),
    workOrders: z
      .array(BoardWorkOrder)
      .meta({ description: 'Scheduled work orders (cancelled ones aside) overlapping the period, by start' }),
  })
  .meta({ id: 'SlotBoardTechnician' });
export type BoardTechnician = z.infer<typeof BoardTechnician>;

export const readBoard = endpoint({
  id: 'slots.board',
  method: 'GET',
  path: '/rest/v3/slots/board',
  domain: 'slots',
  range: 'high',
  summary:
    `The dispatch board: technicians of your office tree by code, ${BOARD_PAGE_SIZE} a page, each with their ` +
    'working hours, absences and scheduled work orders over the period (travel between them drawn from the ' +
    "search's road model), in one read. The continuationToken is bound to the period and filters.",
  errorPrefix: SLOTS_BOARD,
  query: SlotBoardQuery,
  responses: { 200: Page(BoardTechnician).meta({ id: 'SlotBoardPage' }) },
  errors: {
    400: [
      ...Object.values(SlotBoardCodes),
      derivedCode.mandatory(SLOTS_BOARD, 'start'),
      derivedCode.invalid(SLOTS_BOARD, 'start'),
      derivedCode.mandatory(SLOTS_BOARD, 'end'),
      derivedCode.invalid(SLOTS_BOARD, 'end'),
      derivedCode.invalid(SLOTS_BOARD, 'officeCode'),
      derivedCode.invalid(SLOTS_BOARD, 'skillCode'),
      derivedCode.invalid(SLOTS_BOARD, 'areaCode'),
      derivedCode.invalid(SLOTS_BOARD, 'q'),
      derivedCode.invalid(SLOTS_BOARD, 'active'),
      derivedCode.fieldUnknown(SLOTS_BOARD),
    ],
  },
  extension: true,
});

/** The slots endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const slotsEndpoints = {
  searchSlots,
  getWorkOrderNeeds,
  checkSlot,
  readBoard,
};
