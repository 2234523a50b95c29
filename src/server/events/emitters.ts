/**
 * The events of records whose domain only says "this changed": the `data` of each is built
 * here from the stored row, in the caller's transaction, so the domain makes one call.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { rfc3339 } from '../platform/time.ts';
import { type Actor, recordEvent } from './index.ts';

/** The actor of an import (`fieldwork import`, the demo seed): the spec's `process`. */
export const IMPORT_ACTOR: Actor = { type: 'process', identifier: 'fieldwork import' };

/**
 * asset.upsert (spec: Event kinds): the asset as just written, `updatedAt` being its
 * `last_update`. Called by the asset PUT and import after a write that changed something.
 */
export async function recordAssetUpsert(
  trx: Db,
  tenant: string,
  assetCode: string,
  actor: Actor,
): Promise<void> {
  const { rows } = await sql<{ last_update: Date; office_id: string; office_code: string }>`
    SELECT a.last_update, a.office_id, o.code AS office_code
    FROM assets a JOIN offices o ON o.id = a.office_id
    WHERE a.tenant_id = ${tenant} AND a.code = ${assetCode}
  `.execute(trx);
  const asset = rows[0];
  if (!asset) return;
  await recordEvent(trx, {
    type: 'asset.upsert',
    officeId: String(asset.office_id),
    data: {
      updatedAt: rfc3339(asset.last_update),
      assetCode,
      officeCode: asset.office_code,
      actor,
    },
  });
}
