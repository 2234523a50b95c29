import { describe, expect, it } from 'vitest';
import { codeSuffix, customFieldCodesInMessage, errorMessageKey, fieldForError } from './errorFields.ts';

describe('fieldForError: the spec codes of Referentials', () => {
  const customer: [string, string | null][] = [
    ['referentials.customer.code.mandatory', 'code'],
    ['referentials.customer.name.mandatory', 'name'],
    ['referentials.customer.addressdetails.mandatory', 'addressDetails.city'],
    ['referentials.customer.city.mandatory', 'addressDetails.city'],
    ['referentials.customer.custom.field.mandatory', 'customFields'],
    ['referentials.customer.office.unknown', 'officeCode'],
    ['referentials.customer.parent.unknown', 'parentCustomerCode'],
    ['referentials.customer.parent.identical', 'parentCustomerCode'],
    ['referentials.customer.office.hierarchy.error', 'parentCustomerCode'],
    // Not tied to one field: shown in the alert with the errorReference.
    ['referentials.customer.invalid.json', null],
    ['referentials.customer.field.unknown', null],
  ];
  it.each(customer)('customer %s -> %s', (code, field) => {
    expect(fieldForError('customer', { code, message: 'x' })).toBe(field);
  });

  it('site codes', () => {
    expect(fieldForError('site', { code: 'referentials.site.code.mandatory' })).toBe('code');
    expect(fieldForError('site', { code: 'referentials.site.customer.unknown' })).toBe('customerCode');
    expect(fieldForError('site', { code: 'referentials.site.customer.not.found' })).toBe('customerCode');
    expect(fieldForError('site', { code: 'referentials.site.city.mandatory' })).toBe(
      'location.addressDetails.city',
    );
    expect(fieldForError('site', { code: 'referentials.site.parent.identical' })).toBe('parentSiteCode');
    expect(fieldForError('site', { code: 'referentials.site.not.found' })).toBeNull();
  });

  it('asset codes: transfer refusal, customer mismatch, serial number', () => {
    expect(fieldForError('asset', { code: 'referentials.asset.transfer.subassets' })).toBe('siteCode');
    expect(fieldForError('asset', { code: 'referentials.asset.customer.mismatch' })).toBe('customerCode');
    expect(fieldForError('asset', { code: 'referentials.asset.customer.unknown' })).toBe('customerCode');
    expect(fieldForError('asset', { code: 'referentials.asset.site.unknown' })).toBe('siteCode');
    expect(fieldForError('asset', { code: 'referentials.asset.parent.identical' })).toBe('parentAssetCode');
    expect(fieldForError('asset', { code: 'referentials.asset.name.mandatory' })).toBe('name');
    expect(fieldForError('asset', { code: 'referentials.asset.serialnumber.invalid' })).toBe('serialNumber');
  });

  it('a code of another entity or domain is not mapped', () => {
    expect(fieldForError('site', { code: 'referentials.customer.city.mandatory' })).toBeNull();
    expect(fieldForError('customer', { code: 'access.forbiden' })).toBeNull();
    expect(codeSuffix('customer', 'referentials.site.x')).toBeNull();
  });

  it('a path at the head of the message is more precise than the code', () => {
    expect(
      fieldForError('customer', {
        code: 'referentials.customer.value.invalid',
        message: 'contact.details.3.value: Too big',
      }),
    ).toBe('contact.details.3.value');
    expect(
      fieldForError('site', {
        code: 'referentials.site.latitude.invalid',
        message: 'location.geolocation.latitude: Expected number',
      }),
    ).toBe('location.geolocation.latitude');
    // An unknown path falls back to the table.
    expect(
      fieldForError('customer', { code: 'referentials.customer.city.mandatory', message: 'foo.bar: x' }),
    ).toBe('addressDetails.city');
  });

  it('custom-field codes named by the message', () => {
    expect(
      customFieldCodesInMessage('Custom field COLOR is mandatory; Custom field size is mandatory'),
    ).toEqual(['COLOR', 'SIZE']);
    expect(customFieldCodesInMessage('Unknown custom field NOPE')).toEqual(['NOPE']);
    expect(customFieldCodesInMessage(undefined)).toEqual([]);
  });

  it('message keys', () => {
    expect(errorMessageKey('customer', 'referentials.customer.parent.identical')).toBe(
      'serverErrors.customer.parent_identical',
    );
    expect(errorMessageKey('asset', 'referentials.asset.transfer.subassets')).toBe(
      'serverErrors.asset.transfer_subassets',
    );
  });
});
