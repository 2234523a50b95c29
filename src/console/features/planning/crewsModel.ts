/**
 * The crews timeline's rows (pure): a heading row per crew, then its main resource and its
 * secondary resources, each with its participation intervals (clipped to the period by the
 * service) as bars on whole-day columns.
 */
import type { Crew } from '../../../contract/rostering.ts';
import { type Axis, type Bar, dateBar } from './timeline.ts';

export type CrewRowKind = 'crew' | 'main' | 'secondary';

export interface CrewRow {
  key: string;
  kind: CrewRowKind;
  crewCode: string;
  /** The member (none on the crew's heading row). */
  technicianCode?: string;
  bars: { key: string; bar: Bar; from: string; to: string }[];
  /** Members of the crew shown (heading row). */
  memberCount?: number;
}

export function crewRows(crews: readonly Crew[], axis: Axis): CrewRow[] {
  const rows: CrewRow[] = [];
  for (const c of crews) {
    rows.push({
      key: `crew|${c.crewCode}`,
      kind: 'crew',
      crewCode: c.crewCode,
      bars: [],
      memberCount: 1 + c.secondaryResources.length,
    });
    const members = [
      { kind: 'main' as const, r: c.mainResource },
      ...c.secondaryResources.map((r) => ({ kind: 'secondary' as const, r })),
    ];
    for (const { kind, r } of members)
      rows.push({
        key: `${kind}|${c.crewCode}|${r.technicianCode}`,
        kind,
        crewCode: c.crewCode,
        technicianCode: r.technicianCode,
        bars: r.intervals.flatMap((i) => {
          const bar = dateBar(axis, i.from, i.to);
          return bar ? [{ key: `${i.from}/${i.to}`, bar, from: i.from, to: i.to }] : [];
        }),
      });
  }
  return rows;
}

/** The default period: today and the 13 days after it (two weeks). */
export function defaultCrewPeriod(today: string, addDays: (d: string, n: number) => string) {
  return { from: today, to: addDays(today, 13) };
}
