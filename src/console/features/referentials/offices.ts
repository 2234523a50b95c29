/** The caller's office tree as picker options (pure; unit-tested). */
import type { Office } from '../../../contract/referentials.ts';

export interface OfficeOption {
  value: string;
  label: string;
  depth: number;
}

/** Depth-first order of the caller's office subtree, children under their parent. */
export function officeTree(offices: readonly Office[]): OfficeOption[] {
  const codes = new Set(offices.map((o) => o.code));
  const byParent = new Map<string | null, Office[]>();
  for (const o of offices) {
    // The caller's own office has a parent outside its tree: it is a root here.
    const parent = o.parentCode && codes.has(o.parentCode) ? o.parentCode : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), o]);
  }
  const out: OfficeOption[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const o of (byParent.get(parent) ?? []).sort((a, b) => a.code.localeCompare(b.code))) {
      out.push({
        value: o.code,
        label: o.name && o.name !== o.code ? `${o.code} — ${o.name}` : o.code,
        depth,
      });
      walk(o.code, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
