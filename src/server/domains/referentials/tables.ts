import type { Generated } from 'kysely';
import type { Json, Timestamp } from '../../db/schema.ts';

/** Contact as stored: the body's contact with absent fields made null (conventions 5). */
export interface StoredContact {
  name: string | null;
  details: { type: string; value: string; description: string | null }[] | null;
}

/**
 * Kysely types of this domain's tables (migrations 003_referentials.sql, 070_referentials_tenant.sql:
 * `tenant_id` is set by a trigger from `office_id`).
 */
export interface ReferentialsTables {
  customers: {
    code: string;
    name: string;
    parent_code: string | null;
    office_id: string;
    tenant_id: Generated<string>;
    contact: Json<StoredContact | null> | null;
    address: string | null;
    zip_code: string | null;
    city: string;
    country: string | null;
    description: string | null;
    custom_fields: Json<Record<string, unknown>>;
    last_update: Timestamp;
  };
  sites: {
    code: string;
    name: string;
    customer_code: string;
    parent_code: string | null;
    office_id: string;
    tenant_id: Generated<string>;
    contact: Json<StoredContact | null> | null;
    address: string;
    zip_code: string | null;
    city: string;
    country: string | null;
    latitude: number | null;
    longitude: number | null;
    description: string | null;
    custom_fields: Json<Record<string, unknown>>;
    last_update: Timestamp;
  };
  assets: {
    code: string;
    name: string;
    site_code: string | null;
    customer_code: string | null;
    parent_code: string | null;
    office_id: string;
    tenant_id: Generated<string>;
    serial_number: string | null;
    description: string | null;
    custom_fields: Json<Record<string, unknown>>;
    last_update: Timestamp;
  };
}
