/**
 * `GET .../console/v1/home` (contract: getHome): Home's figures in one call. The count of
 * each kind the caller may read (its own records, kinds.ts), exact up to HOME_COUNT_CAP
 * (a count stops reading there), in one UNION ALL; and the first offices of its tree.
 */
import { sql } from 'kysely';
import {
  HOME_COUNT_CAP,
  HOME_OFFICES,
  type HomeFigures,
  type RecordKind,
} from '../../../contract/console.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../caller.ts';
import { KIND_SOURCES, readableKinds } from './kinds.ts';

export async function homeFigures(db: Db, caller: Caller): Promise<HomeFigures> {
  const kinds = readableKinds(caller);
  const counts = kinds.length
    ? sql<{ kind: RecordKind; n: number | string }>`${sql.join(
        kinds.map((kind) => {
          const s = KIND_SOURCES[kind];
          return sql`SELECT ${kind}::text AS kind, count(*) AS n
            FROM (SELECT 1 FROM ${s.from} WHERE ${s.mine(caller)} LIMIT ${HOME_COUNT_CAP + 1}) x`;
        }),
        sql` UNION ALL `,
      )}`.execute(db)
    : Promise.resolve({ rows: [] });
  const { path } = caller.scope;
  const offices = sql<{
    code: string;
    name: string;
    parent_code: string | null;
    path: string;
    total: string;
  }>`
    SELECT o.code, o.name, p.code AS parent_code, o.path, count(*) OVER () AS total
    FROM offices o LEFT JOIN offices p ON p.id = o.parent_id
    WHERE o.path LIKE ${`${path}%`}
    ORDER BY o.path LIMIT ${HOME_OFFICES}`.execute(db);
  const [c, o] = await Promise.all([counts, offices]);
  const depthOf = (p: string) => p.split('/').filter(Boolean).length;
  const top = depthOf(path);
  return {
    counts: c.rows.map((r) => {
      const n = Number(r.n);
      return { kind: r.kind, count: Math.min(n, HOME_COUNT_CAP), more: n > HOME_COUNT_CAP };
    }),
    offices: o.rows.map((r) => ({
      code: r.code,
      name: r.name,
      // The caller's own office heads its tree, whatever its parent.
      parentCode: r.path === path ? null : r.parent_code,
      depth: depthOf(r.path) - top,
    })),
    officeCount: Number(o.rows[0]?.total ?? 0),
  };
}
