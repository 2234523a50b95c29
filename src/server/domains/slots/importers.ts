import { z } from 'zod';
import { applyRows, type Importer, importer, importOffice } from '../../platform/importer.ts';
import { normaliseCity, normaliseZip, upsertCustomerPortalUser, upsertGeocodingEntry } from './queries.ts';

const GeocodingRow = z
  .strictObject({
    zipCode: z.string().trim().max(20).nullish(),
    city: z.string().trim().max(256).nullish(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2')
      .nullish(),
    latitude: z.number().gt(-90).lt(90),
    longitude: z.number().gt(-180).lt(180),
  })
  .refine((r) => !!(r.zipCode || r.city), { message: 'give a zipCode or a city', path: ['zipCode'] })
  .transform((r) => ({
    zip_code: normaliseZip(r.zipCode ?? ''),
    city: normaliseCity(r.city ?? ''),
    country: (r.country ?? '').toUpperCase(),
    latitude: r.latitude,
    longitude: r.longitude,
  }));

const CustomerPortalUserRow = z.strictObject({
  login: z.string().trim().min(1).max(256),
  officeCode: z.string().min(1).max(256),
});

/** Keys `geocoding` (the operator's gazetteer rows) and `customerPortalUsers`. */
export const slotsImporters: Importer[] = [
  importer({
    key: 'geocoding',
    order: 50,
    schema: GeocodingRow,
    keyOf: (r) => `${r.zip_code}|${r.city}|${r.country}`,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `geocoding ${r.zip_code || r.city}`,
        (r) => upsertGeocodingEntry(trx, r),
      ),
  }),
  importer({
    key: 'customerPortalUsers',
    order: 60,
    schema: CustomerPortalUserRow,
    keyOf: (r) => r.login,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `customer portal user ${r.login}`,
        async (r) =>
          upsertCustomerPortalUser(trx, {
            login: r.login,
            office_id: await importOffice(trx, r.officeCode),
          }),
      ),
  }),
];
