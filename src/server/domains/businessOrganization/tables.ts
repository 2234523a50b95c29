import type { ColumnType, Generated } from 'kysely';
import type { CustomFields } from '../../../contract/common.ts';
import type { Json } from '../../db/schema.ts';

/** Kysely types of this domain's tables (db/migrations/004_catalog.sql). */
export type BusinessOrganizationTables = {
  items: {
    code: string;
    name: string;
    category: string | null;
    description: string | null;
    unit: string | null;
    /** numeric(14,2): the drivers return it as a string. */
    unit_price: string | number | null;
    vat_rates: Json<number[] | null> | null;
    reference: string | null;
    bar_code: string | null;
    manufacturer: string | null;
    fixed_price: Generated<boolean>;
    serial_number_pattern: string | null;
    active: Generated<boolean>;
    custom_fields: Json<CustomFields>;
    /** Defaults to now() on insert. */
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
};
