/**
 * PROVISIONAL: body schemas written from the spec until `src/contract/referentials.ts`
 * lands; then this file re-exports the contract's own schemas.
 */
import { z } from 'zod';
import { CustomFields } from '../../../contract/common.ts';

const Contact = z.strictObject({
  name: z.string().max(10000).nullable().optional(),
  details: z
    .array(
      z.strictObject({
        type: z.enum(['Mobile', 'Fax', 'Email', 'Phone']).optional(),
        description: z.string().max(200).nullable().optional(),
        value: z.string().max(100),
      }),
    )
    .max(15)
    .optional(),
});
const Country = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .nullable()
  .optional();

export const CustomerBody = z.strictObject({
  name: z.string().min(1).max(10000),
  parentCustomerCode: z.string().max(10000).nullable().optional(),
  officeCode: z.string().min(1).max(10000).optional(),
  contact: Contact.nullable().optional(),
  addressDetails: z.strictObject({
    address: z.string().max(10000).nullable().optional(),
    zipCode: z.string().max(20).nullable().optional(),
    city: z.string().min(1).max(256),
    country: Country,
  }),
  description: z.string().max(10000).nullable().optional(),
  customFields: CustomFields.optional(),
});

export const SiteBody = z.strictObject({
  name: z.string().min(1).max(10000),
  customerCode: z.string().min(1).max(10000),
  parentSiteCode: z.string().max(10000).nullable().optional(),
  officeCode: z.string().min(1).max(10000).optional(),
  contact: Contact.nullable().optional(),
  location: z.strictObject({
    geolocation: z.strictObject({ latitude: z.number(), longitude: z.number() }).nullable().optional(),
    addressDetails: z.strictObject({
      address: z.string().min(1).max(10000),
      zipCode: z.string().max(20).nullable().optional(),
      city: z.string().min(1).max(256),
      country: Country,
    }),
  }),
  description: z.string().max(8192).nullable().optional(),
  customFields: CustomFields.optional(),
});

export const AssetBody = z.strictObject({
  name: z.string().min(1).max(10000),
  siteCode: z.string().max(10000).nullable().optional(),
  customerCode: z.string().max(10000).nullable().optional(),
  parentAssetCode: z.string().max(10000).nullable().optional(),
  officeCode: z.string().min(1).max(10000).optional(),
  serialNumber: z.string().max(10000).nullable().optional(),
  description: z.string().max(10000).nullable().optional(),
  customFields: CustomFields.optional(),
});
