/**
 * The Referentials form table: per entity, its inputs, record -> form values, record ->
 * PUT body (the version Undo writes back), the form schema, and which form field each
 * preset of a "new" link fills. Loaded with the form pages only (the form chunk).
 */
import type { ComponentType } from 'react';
import type { z } from 'zod';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import { AssetFields } from './components/AssetFields.tsx';
import { CustomerFields } from './components/CustomerFields.tsx';
import { SiteFields } from './components/SiteFields.tsx';
import type { ReferentialEntity } from './paths.ts';
import {
  type AssetForm,
  assetFormSchema,
  assetToBody,
  assetToForm,
  type CustomerForm,
  customerFormSchema,
  customerToBody,
  customerToForm,
  type SiteForm,
  siteFormSchema,
  siteToBody,
  siteToForm,
} from './schemas.ts';
import type { NewRecordSearch } from './search.ts';
import type { BodyOf, RecordOf } from './transport.ts';

export interface FieldsProps {
  creating: boolean;
  /** The edited record's code (refused as its own parent). */
  self?: string;
  definitions: readonly CustomFieldDefinition[];
  /** Sub-records of the edited record, when known. */
  childCount?: number;
}

interface FormValues {
  code: string;
  customFields: CustomFields;
}

export interface RefForm<E extends ReferentialEntity, F extends FormValues> {
  Fields: ComponentType<FieldsProps>;
  toForm(record: RecordOf<E> | null): F;
  toBody(record: RecordOf<E>): BodyOf<E>;
  schema(defs: readonly CustomFieldDefinition[], previous: BodyOf<E> | null): z.ZodType;
  /** The form field each preset of a "new" link fills (`?parent=` -> the parent field). */
  presets: { [K in keyof NewRecordSearch]?: keyof F & string };
  /** Whether the edit form shows the count of sub-records (an asset's transfer). */
  needsChildCount?: boolean;
}

const customer: RefForm<'customer', CustomerForm> = {
  Fields: CustomerFields,
  toForm: customerToForm,
  toBody: customerToBody,
  schema: customerFormSchema,
  presets: { parent: 'parentCustomerCode' },
};
const site: RefForm<'site', SiteForm> = {
  Fields: SiteFields,
  toForm: siteToForm,
  toBody: siteToBody,
  schema: siteFormSchema,
  presets: { customer: 'customerCode', parent: 'parentSiteCode' },
};
const asset: RefForm<'asset', AssetForm> = {
  Fields: AssetFields,
  toForm: assetToForm,
  toBody: assetToBody,
  schema: assetFormSchema,
  presets: { site: 'siteCode', parent: 'parentAssetCode' },
  needsChildCount: true,
};

const FORMS = { customer, site, asset };

/** The form table entry of an entity (form values typed loosely: the pages only pass them through). */
export function refForm<E extends ReferentialEntity>(entity: E): RefForm<E, FormValues> {
  return FORMS[entity] as unknown as RefForm<E, FormValues>;
}
