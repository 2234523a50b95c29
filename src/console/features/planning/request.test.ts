import { describe, expect, it } from 'vitest';
import { SlotSearchRequest } from '../../../contract/slots.ts';
import {
  checkForm,
  defaultRange,
  fieldOfPath,
  formFromSearch,
  PLANNER_SLOTS_PER_TECHNICIAN,
  type PlannerFormValues,
  periodOf,
  requestFromSearch,
  searchFromForm,
} from './request.ts';
import { type PlannerSearch, validatePlannerSearch } from './search.ts';
import { fromLocalInput, toLocalInput } from './time.ts';

const PARIS = 'Europe/Paris';
const NOW = Date.parse('2029-12-20T10:00:00Z');

const form = (over: Partial<PlannerFormValues> = {}): PlannerFormValues => ({
  ...formFromSearch({}, PARIS, NOW),
  ...over,
});

describe('time in the display zone', () => {
  it('reads and writes wall-clock times of a zone, across clock changes', () => {
    expect(fromLocalInput('2030-01-14T09:00', PARIS)).toBe(Date.parse('2030-01-14T08:00:00Z'));
    expect(fromLocalInput('2030-07-14T09:00', PARIS)).toBe(Date.parse('2030-07-14T07:00:00Z'));
    expect(toLocalInput(Date.parse('2030-07-14T07:00:00Z'), PARIS)).toBe('2030-07-14T09:00');
    // 02:30 does not exist on 2030-03-31 in Paris: clocks move forward.
    expect(toLocalInput(fromLocalInput('2030-03-31T02:30', PARIS) as number, PARIS)).toBe('2030-03-31T03:30');
    expect(fromLocalInput('2030-02-30T09:00', PARIS)).toBeNull();
    expect(fromLocalInput('tomorrow', PARIS)).toBeNull();
  });
});

describe('form <-> URL <-> request', () => {
  it('a new form: a work order, a week from tomorrow in the display zone', () => {
    const v = formFromSearch({}, PARIS, NOW);
    expect(v.target).toBe('workOrder');
    expect(v.period).toBe('ranges');
    expect(v.ranges).toEqual([defaultRange(NOW, PARIS)]);
    expect(v.ranges[0]).toEqual({ start: '2029-12-21T00:00', end: '2029-12-28T00:00' });
  });

  it('a work order search: ranges in UTC in the URL, the work order and its type in the body', () => {
    const v = form({
      wo: 'wo-e2e-1',
      type: 'repair',
      ranges: [{ start: '2030-01-14T08:00', end: '2030-01-18T18:00' }],
      // Place fields are not sent with a work order: it gives the place.
      city: 'Lille',
      offices: ['NORTH'],
      max: '20',
    });
    const s = searchFromForm(v, PARIS);
    expect(s).toEqual({
      wo: 'WO-E2E-1',
      type: 'REPAIR',
      period: 'ranges',
      ranges: ['2030-01-14T07:00/2030-01-18T17:00'],
      offices: ['NORTH'],
      max: 20,
    });
    expect(requestFromSearch(s)).toEqual({
      workOrderType: { code: 'REPAIR' },
      workOrder: { code: 'WO-E2E-1' },
      timeRanges: [{ start: '2030-01-14T07:00', end: '2030-01-18T17:00' }],
      offices: { codes: ['NORTH'] },
      maximumSlotNumber: 20,
      // The offers spread across technicians by default (issue 27, 11).
      maximumSlotsPerTechnician: PLANNER_SLOTS_PER_TECHNICIAN,
    });
    // A cap given in the URL is sent instead.
    expect(requestFromSearch({ ...s, perTech: 2 }).maximumSlotsPerTechnician).toBe(2);
    // Back to the form: the same values in the display zone.
    expect(formFromSearch(s, PARIS, NOW).ranges).toEqual(v.ranges);
  });

  it('a type and a place: the location, an appointment date and every option', () => {
    const v = form({
      target: 'place',
      wo: 'IGNORED',
      type: 'GAS-SERVICE',
      address: '1 rue de la Gare',
      zip: '59000',
      city: 'Lille',
      country: 'fr',
      lat: '50.63',
      lon: '3,06',
      period: 'date',
      date: '2030-01-15',
      areas: ['LILLE-METRO'],
      areaScope: 'TIMESLOT',
      skills: ['ELEC'],
      zone: true,
      zoneZip: '59000',
      portalUser: 'portal-a',
      firstOfDay: true,
      hours: ['10:00', '08:00', '10:00'],
      ignoreCapacity: true,
    });
    const s = searchFromForm(v, PARIS, 'list');
    expect(s.wo).toBeUndefined();
    expect(s.ranges).toBeUndefined();
    expect(s.view).toBe('list');
    const body = requestFromSearch(s);
    expect(body).toEqual({
      workOrderType: { code: 'GAS-SERVICE' },
      availabilities: { appointmentDate: '2030-01-15' },
      skills: { codes: ['ELEC'] },
      areas: { codes: ['LILLE-METRO'] },
      areaScope: 'TIMESLOT',
      enableZoneFilter: true,
      zipCode: '59000',
      customerPortalUser: 'portal-a',
      perResource: 'FIRST_OF_THE_DAY',
      startingHours: { values: ['08:00', '10:00'] },
      location: {
        address: '1 rue de la Gare',
        zipCode: '59000',
        city: 'Lille',
        country: 'FR',
        latitude: 50.63,
        longitude: 3.06,
      },
      schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
    });
    expect(SlotSearchRequest.safeParse(body).success).toBe(true);
  });

  it('the URL survives the router: numbers and flags parsed from JSON come back as the search', () => {
    const raw = {
      wo: 123,
      type: 'repair',
      lat: '50.5',
      zone: 'true',
      period: 'ranges',
      ranges: 'a/b',
      junk: 1,
    };
    expect(validatePlannerSearch(raw)).toEqual({
      wo: '123',
      type: 'REPAIR',
      lat: 50.5,
      zone: true,
      period: 'ranges',
      ranges: ['a/b'],
    });
    expect(validatePlannerSearch({ period: 'later', view: 'grid' })).toEqual({});
  });

  it('sends only what was given (and the per-technician cap): an empty search body has no other field', () => {
    const cap = { maximumSlotsPerTechnician: PLANNER_SLOTS_PER_TECHNICIAN };
    expect(requestFromSearch({ period: 'ranges' })).toEqual(cap);
    const s: PlannerSearch = { period: 'date', ranges: ['2030-01-14T07:00/2030-01-18T17:00'] };
    // The appointment mode leaves the ranges out (and the missing date is the service's 1002).
    expect(requestFromSearch(s)).toEqual(cap);
  });

  it('the period of a search, for the timeline', () => {
    // An appointment date is that day in the display zone.
    expect(periodOf({ period: 'date', date: '2030-01-15' }, PARIS)).toEqual({
      start: Date.parse('2030-01-14T23:00:00Z'),
      end: Date.parse('2030-01-15T23:00:00Z'),
    });
    expect(periodOf({ period: 'date', date: '2030-02-30' }, PARIS)).toBeNull();
    expect(
      periodOf(
        {
          period: 'ranges',
          ranges: ['2030-01-16T07:00/2030-01-16T17:00', '2030-01-14T07:00/2030-01-14T09:00'],
        },
        PARIS,
      ),
    ).toEqual({ start: Date.parse('2030-01-14T07:00:00Z'), end: Date.parse('2030-01-16T17:00:00Z') });
    expect(periodOf({ period: 'ranges', ranges: ['x/y'] }, PARIS)).toBeNull();
  });
});

describe("the form's own checks (shapes; the business rules are the service's)", () => {
  it('puts each problem on its input', () => {
    const problems = checkForm(
      form({
        target: 'place',
        type: 'REPAIR',
        lat: 'north',
        max: '1.5',
        ranges: [{ start: '2030-01-14T25:00', end: '2030-01-15T08:00' }],
      }),
      PARIS,
    );
    expect(problems.map((p) => p.field).sort()).toEqual(['coordinates', 'max', 'ranges']);
    expect(checkForm(form({ hours: ['08:00', '25:00'] }), PARIS)).toEqual([
      { field: 'hours', message: 'planning:check.hour' },
    ]);
    expect(checkForm(form({ period: 'date', date: '2030-02-30' }), PARIS)).toEqual([
      { field: 'date', message: 'planning:check.date' },
    ]);
  });

  it('leaves business rules to the service: no type, a past period pass the form', () => {
    expect(
      checkForm(form({ ranges: [{ start: '2020-01-01T08:00', end: '2020-01-02T08:00' }] }), PARIS),
    ).toEqual([]);
  });

  it('maps the paths of the contract schema to the inputs', () => {
    expect(fieldOfPath(['timeRanges', 0, 'start'], 'place')).toBe('ranges');
    expect(fieldOfPath(['location', 'latitude'], 'place')).toBe('coordinates');
    expect(fieldOfPath(['location', 'city'], 'place')).toBe('place');
    expect(fieldOfPath(['location', 'city'], 'workOrder')).toBe('wo');
    expect(fieldOfPath(['startingHours', 'values', 2], 'place')).toBe('hours');
    expect(fieldOfPath(['perResource'], 'place')).toBeNull();
  });
});
