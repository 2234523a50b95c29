/**
 * The import file of the slot search and scheduling tests: dates relative to now (a Monday
 * at least a week ahead), so they stay in the future.
 */
const DAY = 86_400_000;

/** `YYYY-MM-DD` of the first Monday at least 7 days after now (UTC). */
export function futureMonday(now = Date.now()): string {
  const d = new Date(Math.floor(now / DAY) * DAY + 7 * DAY);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` plus `n` days. */
export const plusDays = (date: string, n: number) =>
  new Date(Date.parse(date) + n * DAY).toISOString().slice(0, 10);

export const LILLE = { latitude: 50.6292, longitude: 3.0573 };
export const ROUBAIX = { latitude: 50.6942, longitude: 3.1746 };
export const LYON = { latitude: 45.764, longitude: 4.8357 };
export const AJACCIO = { latitude: 41.9192, longitude: 8.7386 };

export function slotFixture(monday: string) {
  const tuesday = plusDays(monday, 1);
  return {
    skills: [
      { skillCode: 'ELEC', name: 'Electricity' },
      { skillCode: 'GAS', name: 'Gas' },
      { skillCode: 'LIFT', name: 'Lifts' },
    ],
    workOrderTypes: [
      { workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60, skills: ['ELEC'] },
      { workOrderTypeCode: 'GASFIX', name: 'Gas fix', durationMinutes: 90, skills: ['GAS'] },
      { workOrderTypeCode: 'LIFTFIX', name: 'Lift fix', durationMinutes: 60, skills: ['LIFT'] },
    ],
    areas: [
      { areaCode: 'LILLE', name: 'Lille metropolis', zipCodes: ['59000', '59100'] },
      { areaCode: 'LYON', name: 'Lyon', zipCodes: ['69001', '69002'] },
    ],
    technicians: [
      {
        technicianCode: 'T-PARIS',
        name: 'Paula',
        officeCode: 'NORTH',
        skills: ['ELEC'],
        home: LILLE,
        timeZone: 'Europe/Paris',
        workingHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '12:00' })),
        absences: [{ start: `${tuesday}T00:00`, end: `${tuesday}T23:59` }],
        areas: ['LILLE'],
      },
      {
        technicianCode: 'T-UTC',
        name: 'Uma',
        officeCode: 'NORTH-A',
        skills: ['ELEC', 'GAS'],
        home: ROUBAIX,
        workingHours: [{ weekday: 1, start: '09:00', end: '17:00' }],
        capacity: { maxWorkOrdersPerDay: 2 },
      },
      {
        technicianCode: 'T-SOUTH',
        name: 'Sam',
        officeCode: 'SOUTH',
        skills: ['ELEC'],
        home: LYON,
        timeZone: 'Europe/Paris',
        areas: ['LYON'],
      },
      { technicianCode: 'T-NOHOME', name: 'Nemo', officeCode: 'NORTH', skills: ['LIFT'] },
      {
        technicianCode: 'T-OFF',
        name: 'Olga',
        officeCode: 'NORTH',
        skills: ['ELEC'],
        home: LILLE,
        active: false,
      },
    ],
    workOrders: [
      {
        workOrderCode: 'WO-NEW',
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'NORTH',
        location: { city: 'Lille', zipCode: '59000', ...LILLE },
      },
      {
        workOrderCode: 'WO-BUSY',
        workOrderTypeCode: 'GASFIX',
        status: 'SCHEDULED',
        officeCode: 'NORTH',
        technicianCode: 'T-UTC',
        scheduledStart: `${monday}T11:00`,
        location: { zipCode: '59100', city: 'Roubaix', ...ROUBAIX },
      },
      {
        workOrderCode: 'WO-SOUTH',
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'SOUTH',
        location: { city: 'Lyon', ...LYON },
      },
    ],
    customerPortalUsers: [{ login: 'portal-a', officeCode: 'NORTH-A' }],
    geocoding: [{ zipCode: '99999', country: 'FR', latitude: 50.5, longitude: 3.1 }],
  };
}
