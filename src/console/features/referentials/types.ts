/**
 * Record shapes the pages work on, all from the contract (`src/contract/referentials.ts`):
 * records are the GET responses, bodies the PUT inputs.
 */
import type {
  Asset,
  AssetBodyInput,
  Customer,
  CustomerBodyInput,
  Site,
  SiteBodyInput,
} from '../../../contract/referentials.ts';
import type { ReferentialEntity } from './errorFields.ts';

export type { ReferentialEntity } from './errorFields.ts';
export type { Asset, Customer, Site };

export type CustomerBody = CustomerBodyInput;
export type SiteBody = SiteBodyInput;
export type AssetBody = AssetBodyInput;
/** A contact as a record carries it (customer and site). */
export type Contact = NonNullable<Customer['contact']>;

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
/** Element of a list page (the list extension answers records of the GET shape). */
export type ListItem<E extends ReferentialEntity> = EntityRecord<E>;

export const codeOf = (entity: ReferentialEntity, r: Record<string, unknown>): string =>
  String(r[entity === 'customer' ? 'customerCode' : entity === 'site' ? 'siteCode' : 'assetCode'] ?? '');
export const parentOf = (entity: ReferentialEntity, r: Record<string, unknown>): string | null =>
  (r[
    entity === 'customer' ? 'parentCustomerCode' : entity === 'site' ? 'parentSiteCode' : 'parentAssetCode'
  ] as string | null) ?? null;
