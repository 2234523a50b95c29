/**
 * Import keys `customers`, `sites`, `assets`: each element is the API body plus its code.
 * Rows go through the same service functions as the PUT routes, with a caller that sees
 * the whole office tree; replaying a file changes nothing (identical rows are skipped).
 */
import { Code } from '../../../contract/common.ts';
import { AssetBody, CustomerBody, SiteBody } from '../../../contract/referentials.ts';
import { applyRows, type Importer, importer, importScope } from '../../platform/importer.ts';
import { putAsset, putCustomer, putSite } from './service.ts';

const CustomerRow = CustomerBody.extend({ customerCode: Code() });
const SiteRow = SiteBody.extend({ siteCode: Code() });
const AssetRow = AssetBody.extend({ assetCode: Code() });

/** Rows ordered so that a parent present in the file comes before its children. */
export function parentsFirst<T>(
  rows: T[],
  code: (r: T) => string,
  parent: (r: T) => string | null | undefined,
) {
  const byCode = new Map(rows.map((r) => [code(r), r]));
  const depth = new Map<string, number>();
  const depthOf = (r: T, seen: Set<string>): number => {
    const c = code(r);
    const known = depth.get(c);
    if (known !== undefined) return known;
    const p = parent(r);
    const parentRow = p ? byCode.get(p) : undefined;
    // A cycle inside the file stops here; the service then refuses it.
    const d = parentRow && !seen.has(c) ? depthOf(parentRow, seen.add(c)) + 1 : 0;
    depth.set(c, d);
    return d;
  };
  return rows
    .map((r, i) => ({ r, i, d: depthOf(r, new Set()) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.r);
}

export const referentialsImporters: Importer[] = [
  importer({
    key: 'customers',
    order: 100,
    schema: CustomerRow,
    keyOf: (r) => r.customerCode,
    apply: async (trx, rows) => {
      const scope = await importScope(trx);
      return applyRows(
        parentsFirst(
          rows,
          (r) => r.customerCode,
          (r) => r.parentCustomerCode,
        ),
        (r) => `customer ${r.customerCode}`,
        ({ customerCode, ...body }) => putCustomer(trx, scope, customerCode, body),
      );
    },
  }),
  importer({
    key: 'sites',
    order: 110,
    schema: SiteRow,
    keyOf: (r) => r.siteCode,
    apply: async (trx, rows) => {
      const scope = await importScope(trx);
      return applyRows(
        parentsFirst(
          rows,
          (r) => r.siteCode,
          (r) => r.parentSiteCode,
        ),
        (r) => `site ${r.siteCode}`,
        ({ siteCode, ...body }) => putSite(trx, scope, siteCode, body),
      );
    },
  }),
  importer({
    key: 'assets',
    order: 120,
    schema: AssetRow,
    keyOf: (r) => r.assetCode,
    apply: async (trx, rows) => {
      const scope = await importScope(trx);
      return applyRows(
        parentsFirst(
          rows,
          (r) => r.assetCode,
          (r) => r.parentAssetCode,
        ),
        (r) => `asset ${r.assetCode}`,
        ({ assetCode, ...body }) => putAsset(trx, scope, assetCode, body),
      );
    },
  }),
];
