import type { ColumnType, Generated } from 'kysely';
import type { JobType, ProjectStatus, ServiceOrderStatus } from '../../../contract/projectManagement.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ServiceOrderKind = 'standard' | 'route' | 'multiEquipment';

/** Kysely types of the project management tables (migrations/050_project_management.sql). */
export interface ProjectManagementTables {
  projects: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    code: string;
    name: string;
    office_id: string;
    status: ProjectStatus;
    last_update: Timestamp;
  };
  project_jobs: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    project_id: string;
    /** Order key: jobs are in `rank` order; positions are counted, so a removal leaves no gap. */
    rank: ColumnType<string, string | number | bigint, string | number | bigint>;
    job_type: JobType;
    /** Phase code or task number; null for a work order (its code is the work order's). */
    code: string | null;
    work_order_id: string | null;
    name: string | null;
    planned_start: NullableTimestamp;
    planned_end: NullableTimestamp;
  };
  project_dependencies: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    project_id: string;
    blocking_job_id: string;
    blocked_job_id: string;
  };
  service_orders: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    code: string;
    kind: ServiceOrderKind;
    office_id: string;
    /** null for a multi-equipment service order. */
    status: ServiceOrderStatus | null;
    /** null: the instance's FIELDWORK_SERVICE_ORDER_MAX. */
    max_work_orders: number | null;
    last_update: Timestamp;
  };
  service_order_work_orders: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    service_order_id: string;
    work_order_id: string;
    rank: ColumnType<string, string | number | bigint, string | number | bigint>;
  };
}
