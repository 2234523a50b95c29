/** Rules of the diagnostic domain: a work order's flags and notes. */
import {
  DiagnosticCodes,
  FLAGS_PAGE_SIZE,
  listFlags as listFlagsRow,
  type WorkOrderDiagnostic,
} from '../../../contract/diagnostic.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { findWorkOrder, type WorkOrderRef, type WorkOrderRow } from '../fieldService/index.ts';
import { diagnosticOf, flagsAfter, replaceFlags, unknownFlags, upsertFlag, upsertNote } from './queries.ts';
import type { ReportFields } from './tables.ts';

async function workOrderOf(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderRow> {
  const found = await findWorkOrder(db, scope, ref);
  if ('missing' in found)
    throw notFound(DiagnosticCodes.workOrderNotFound, 'The work order does not exist in your office tree');
  if ('ambiguous' in found)
    throw badRequest(
      DiagnosticCodes.workOrderAmbiguous,
      'Several live work orders carry this code: use its uuid',
    );
  return found.found;
}

export const putFlag = (trx: Db, f: { flagId: number; label: string }) =>
  upsertFlag(trx, { flag_id: f.flagId, label: f.label });

/** Flags PUT: the work order carries exactly these flags afterwards. */
export function setFlags(db: Db, scope: OfficeScope, ref: WorkOrderRef, ids: number[]): Promise<void> {
  return writeTransaction(db, async (trx) => {
    const wo = await workOrderOf(trx, scope, ref);
    const distinct = [...new Set(ids)].sort((a, b) => a - b);
    const unknown = await unknownFlags(trx, distinct);
    if (unknown.length)
      throw badRequest(DiagnosticCodes.flagsUnknown, `Unknown flag id ${unknown.join(', ')}`);
    await replaceFlags(trx, wo.id, distinct);
  });
}

/** Notes PUT: exactly one of content or reportFields. */
export function putNote(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
  noteCode: string,
  body: { content?: string | null; reportFields?: ReportFields | null },
): Promise<WriteOutcome> {
  const content = body.content ?? null;
  const reportFields = body.reportFields ?? null;
  if (content !== null && reportFields !== null)
    throw badRequest(DiagnosticCodes.noteConflict, 'Give content or reportFields, not both');
  if (content === null && reportFields === null)
    throw badRequest(DiagnosticCodes.noteMandatory, 'Give content or reportFields');
  return writeTransaction(db, async (trx) => {
    const wo = await workOrderOf(trx, scope, ref);
    return upsertNote(trx, { workOrderId: wo.id, noteCode, content, reportFields });
  });
}

/** Extension: the flags and notes of a work order. */
export async function getDiagnostic(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
): Promise<WorkOrderDiagnostic> {
  const wo = await workOrderOf(db, scope, ref);
  const d = await diagnosticOf(db, wo.id);
  return { workOrderCode: wo.code, uuid: wo.uuid, flags: d.flags, notes: d.notes };
}

export async function listFlags(db: Db, tokens: PageTokens, continuationToken?: string) {
  const request = pageRequest(
    tokens,
    {
      id: listFlagsRow.id,
      invalidCode: DiagnosticCodes.continuationTokenInvalid,
      isKey: (p): p is number => Number.isInteger(p),
    },
    continuationToken,
  );
  const rows = await flagsAfter(db, request.after, FLAGS_PAGE_SIZE + 1);
  return request.page(
    rows,
    FLAGS_PAGE_SIZE,
    (f) => ({ flagId: f.flag_id, label: f.label }),
    (f) => f.flag_id,
  );
}
