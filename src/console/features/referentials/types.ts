/**
 * Record shapes the pages work on. PROVISIONAL: mirrors the spec until
 * `src/contract/referentials.ts` lands; then these become `z.infer` of the contract.
 */
import type { CustomFields } from '../../../contract/common.ts';

export type { ReferentialEntity } from './errorFields.ts';

import type { ReferentialEntity } from './errorFields.ts';

export type ContactType = 'Mobile' | 'Fax' | 'Email' | 'Phone';
export interface ContactDetail {
  type?: ContactType | null;
  description?: string | null;
  value: string;
}
export interface Contact {
  name?: string | null;
  details?: ContactDetail[] | null;
}
export interface AddressDetails {
  address?: string | null;
  zipCode?: string | null;
  city: string;
  country?: string | null;
}
export interface Geolocation {
  latitude: number;
  longitude: number;
}

export interface CustomerBody {
  name: string;
  parentCustomerCode?: string | null;
  officeCode?: string;
  contact?: Contact | null;
  addressDetails: AddressDetails;
  description?: string | null;
  customFields?: CustomFields;
}
export interface Customer extends CustomerBody {
  customerCode: string;
  officeCode: string;
  lastUpdate?: string;
}
export interface SiteBody {
  name: string;
  customerCode: string;
  parentSiteCode?: string | null;
  officeCode?: string;
  contact?: Contact | null;
  location: { geolocation?: Geolocation | null; addressDetails: AddressDetails };
  description?: string | null;
  customFields?: CustomFields;
}
export interface Site extends SiteBody {
  siteCode: string;
  officeCode: string;
  lastUpdate?: string;
}
export interface AssetBody {
  name: string;
  siteCode?: string | null;
  customerCode?: string | null;
  parentAssetCode?: string | null;
  officeCode?: string;
  serialNumber?: string | null;
  description?: string | null;
  customFields?: CustomFields;
}
export interface Asset extends AssetBody {
  assetCode: string;
  officeCode: string;
  lastUpdate?: string;
}

export type EntityBody<E extends ReferentialEntity> = E extends 'customer'
  ? CustomerBody
  : E extends 'site'
    ? SiteBody
    : AssetBody;
export type EntityRecord<E extends ReferentialEntity> = E extends 'customer'
  ? Customer
  : E extends 'site'
    ? Site
    : Asset;
/** Element of a list page. */
export type ListItem<E extends ReferentialEntity> = EntityRecord<E>;

export const codeOf = (entity: ReferentialEntity, r: Record<string, unknown>): string =>
  String(r[entity === 'customer' ? 'customerCode' : entity === 'site' ? 'siteCode' : 'assetCode'] ?? '');
export const parentOf = (entity: ReferentialEntity, r: Record<string, unknown>): string | null =>
  (r[
    entity === 'customer' ? 'parentCustomerCode' : entity === 'site' ? 'parentSiteCode' : 'parentAssetCode'
  ] as string | null) ?? null;
