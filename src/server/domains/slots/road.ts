/**
 * Travel between two places, behind an interface a routing engine (OSRM, Valhalla) can
 * replace. The default road model: the great-circle distance times a detour factor, driven
 * at a speed that grows with the distance (town, then main roads, then motorway), with no
 * road between different land masses (a coarse table of islands and continents).
 */
export interface Point {
  latitude: number;
  longitude: number;
}
export interface Route {
  minutes: number;
  kilometres: number;
}
/** NO_ROUTE: the places are not linked by road (3032); UNAVAILABLE: cannot compute (3031). */
export type RouteResult = Route | 'NO_ROUTE' | 'UNAVAILABLE';

export interface RoadModel {
  travel(from: Point, to: Point): RouteResult;
  /**
   * Optional, lets the search leave out technicians that cannot make the answer without
   * working out their days: a travel between different points takes `minutesAt` of their
   * great-circle distance (a non-decreasing function) when both lie in one `region`, and is
   * NO_ROUTE otherwise; never UNAVAILABLE. A model without it is asked about every travel.
   */
  geometry?: Geometry;
}
export interface Geometry {
  region(p: Point): string;
  minutesAt(km: number): number;
}

const EARTH_RADIUS_KM = 6371.0088;
/** Roads are longer than the straight line. */
export const DETOUR_FACTOR = 1.3;
/** Speed by band of road distance: the first 10 km at 30 km/h, up to 50 km at 60, then 90. */
export const SPEED_BANDS = [
  { upToKm: 10, kmPerHour: 30 },
  { upToKm: 50, kmPerHour: 60 },
  { upToKm: Number.POSITIVE_INFINITY, kmPerHour: 90 },
] as const;

export function greatCircleKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Minutes to drive `km` of road through the speed bands (rounded up to the minute). */
export function drivingMinutes(km: number): number {
  let left = km;
  let from = 0;
  let hours = 0;
  for (const band of SPEED_BANDS) {
    const part = Math.min(left, band.upToKm - from);
    hours += part / band.kmPerHour;
    left -= part;
    from = band.upToKm;
    if (left <= 0) break;
  }
  return Math.ceil(hours * 60 - 1e-9);
}

/**
 * Land masses a road cannot leave: [name, south, north, west, east]; islands first, a point
 * in none of them is on the Afro-Eurasian mainland. Coarse on purpose (ferries and the
 * Channel Tunnel shuttle are not roads here): a routing engine knows better.
 */
const LAND_MASSES: readonly [string, number, number, number, number][] = [
  ['Corsica', 41.3, 43.1, 8.5, 9.6],
  ['Sardinia', 38.8, 41.3, 8.1, 9.9],
  ['Sicily', 36.6, 38.35, 12.3, 15.7],
  ['Balearic Islands', 38.6, 40.1, 1.1, 4.4],
  ['Malta', 35.78, 36.09, 14.18, 14.58],
  ['Crete', 34.8, 35.7, 23.5, 26.4],
  ['Cyprus', 34.5, 35.7, 32.2, 34.6],
  ['Ireland', 51.4, 55.45, -10.7, -5.9],
  ['Great Britain', 49.9, 58.7, -6.4, 1.8],
  ['Iceland', 63.2, 66.6, -24.6, -13.4],
  ['Japan', 30, 46, 129.5, 146],
  ['Australia', -44, -10, 112, 154],
  ['Americas', -56, 84, -170, -30],
];

export function landMassOf(p: Point): string {
  for (const [name, south, north, west, east] of LAND_MASSES)
    if (p.latitude >= south && p.latitude <= north && p.longitude >= west && p.longitude <= east) return name;
  return 'Afro-Eurasia';
}

/** Minutes to drive between two points `km` great-circle kilometres apart. */
const minutesAt = (km: number) => drivingMinutes(km * DETOUR_FACTOR);

export const greatCircleRoadModel: RoadModel = {
  travel(from, to) {
    if (from.latitude === to.latitude && from.longitude === to.longitude)
      return { minutes: 0, kilometres: 0 };
    if (landMassOf(from) !== landMassOf(to)) return 'NO_ROUTE';
    const gc = greatCircleKm(from, to);
    const km = gc * DETOUR_FACTOR;
    return { minutes: minutesAt(gc), kilometres: Math.round(km * 10) / 10 };
  },
  geometry: { region: landMassOf, minutesAt },
};
