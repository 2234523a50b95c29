/**
 * A change entry of the service's change log (issue 29; contract decided in
 * COORDINATION.md, `src/contract/changes.ts` on the service's side): what the stream
 * pushes and a record's history lists.
 */

export interface ChangeActor {
  type: 'webService' | 'webUser' | 'process' | (string & {});
  identifier: string;
}

export interface ChangeField {
  name: string;
  before: unknown;
  after: unknown;
}

export interface ChangeEntry {
  /** Per-tenant increasing (a bigint as a decimal string): the stream's event id. */
  id: string;
  kind: string;
  code: string;
  uuid: string | null;
  officeCode: string | null;
  action: string;
  actor: ChangeActor;
  at: string;
  fields: ChangeField[];
}

/** The stream's `data:`, or null when it is not a change entry (never trusted blindly). */
export function readEntry(data: string): ChangeEntry | null {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  const e = v as Partial<ChangeEntry> | null;
  if (!e || typeof e.id !== 'string' || typeof e.kind !== 'string' || typeof e.code !== 'string') return null;
  if (typeof e.action !== 'string' || typeof e.actor?.identifier !== 'string') return null;
  return { ...e, fields: Array.isArray(e.fields) ? e.fields : [] } as ChangeEntry;
}
