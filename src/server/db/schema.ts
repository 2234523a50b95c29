import type { ColumnType, Generated } from 'kysely';
import type { domains } from '../domains/index.ts';
import type { AuthTables, CallerChangeTables, RevokedTokenTables } from '../platform/auth/tables.ts';
import type { DomainModule } from '../platform/domain.ts';
import type { IdempotencyTables } from '../platform/idempotency.ts';

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Json<T = unknown> = ColumnType<T, string, string>;

export interface PlatformTables {
  offices: { id: Generated<string>; code: string; name: string; parent_id: string | null; path: string };
  applications: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    client_id: string;
    secret_hash: string;
    name: string;
    office_id: string;
    scopes: string[];
    created_at: Generated<Timestamp>;
    /** Set while the application is disabled: its tokens are refused, no new one is issued. */
    disabled_at: Timestamp | null;
    /** Moves on at each secret rotation: tokens issued before carry an older one. */
    token_version: ColumnType<number, number | undefined, number>;
    secret_rotated_at: Timestamp | null;
    /** Last change of secret, state or rights (migration 008). */
    changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  users: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    login: string;
    password_hash: string;
    office_id: string;
    roles: Generated<string[]>;
    created_at: Generated<Timestamp>;
    /** Set while the user is disabled: no sign-in, its tokens refused (migration 080). */
    disabled_at: Timestamp | null;
    /** Moves on at each password change or disable: tokens issued before carry an older one. */
    session_version: ColumnType<number, number | undefined, number>;
  };
  custom_field_definitions: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
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

type TablesOf<M> = M extends DomainModule<infer T> ? T : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every table: the platform's, then each registered domain's own (its tables.ts). */
export type Database = PlatformTables &
  AuthTables &
  CallerChangeTables &
  RevokedTokenTables &
  IdempotencyTables &
  Intersection<TablesOf<(typeof domains)[number]>>;
