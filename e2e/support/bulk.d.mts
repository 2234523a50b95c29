/** Types of bulk.mjs (plain JavaScript: e2e/support/server.mjs runs without a TypeScript loader). */
export declare const BULK_WORK_ORDER: 'WO-E2E-BULK';
export declare const BULK_TECHNICIAN: 'TECH-N1';
export declare const BULK_DAY: '2025-06-02';
export declare const BOARD_OFFICE: 'FLEET';
export declare const BOARD_DAY: '2030-02-04';
export declare const BOARD_TECHNICIANS: 2000;
export declare const BOARD_PATH: string;
export declare const BOARD_READ: '/rest/v3/slots/board';
export declare function boardTechnician(i: number): string;

export interface BulkDocument {
  technicians: Record<string, unknown>[];
  workOrders: Record<string, unknown>[];
  activities: Record<string, unknown>[];
  usedItems: Record<string, unknown>[];
  positions: Record<string, unknown>[];
}
export declare function bulkDocument(): BulkDocument;

interface DurationSum {
  count: number;
  durationSeconds: number;
}
interface UsedItemSum {
  count: number;
  quantity: number;
  amount: number;
  unpricedCount: number;
}
export declare const BULK_EXPECTED: {
  activities: DurationSum & { billable: DurationSum; notBillable: DurationSum; validatedCount: number };
  usedItems: { all: UsedItemSum; external: UsedItemSum; internal: UsedItemSum };
  positions: { technicianCode: string; day: string; count: number };
};
