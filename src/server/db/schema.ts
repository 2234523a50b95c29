import type { ColumnType, Generated } from 'kysely';
import type { BusinessOrganizationTables } from '../domains/businessOrganization/tables.ts';
import type { ReferentialsTables } from '../domains/referentials/tables.ts';
import type { StaffTables } from '../domains/staff/tables.ts';
import type { AuthTables } from '../platform/auth/tables.ts';

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Json<T = unknown> = ColumnType<T, string, string>;

export interface PlatformTables {
  offices: { id: Generated<string>; code: string; name: string; parent_id: string | null; path: string };
  applications: {
    id: Generated<string>;
    client_id: string;
    secret_hash: string;
    name: string;
    office_id: string;
    scopes: string[];
    created_at: Generated<Timestamp>;
  };
  users: {
    id: Generated<string>;
    login: string;
    password_hash: string;
    office_id: string;
    roles: Generated<string[]>;
    created_at: Generated<Timestamp>;
  };
  custom_field_definitions: {
    entity: string;
    code: string;
    label: string | null;
    type: string;
    mandatory: Generated<boolean>;
    values: Json<string[] | null> | null;
  };
  instance_secrets: { name: string; value: string };
  schema_migrations: { name: string; applied_at: Generated<Timestamp> };
}

/** Every table, one interface per domain (each domain declares its own in tables.ts). */
export interface Database
  extends PlatformTables,
    AuthTables,
    ReferentialsTables,
    BusinessOrganizationTables,
    StaffTables {}
