/**
 * Code characters (issues 8 and 14): codes are ASCII `[A-Za-z0-9_.-]`, folded by ASCII
 * upper-casing only. `straße` and `STRASSE`, `ı` and `I`, `ſ` and `S` never meet: the
 * non-ASCII spelling is refused (400, the field's code error) in paths, bodies and import
 * files, and a lookup by such a spelling never reaches the ASCII record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putItem } from '../../../contract/businessOrganization.ts';
import { CODE_PATTERN, Code, foldCode } from '../../../contract/common.ts';
import { jobCode, readProjectLink } from '../../../contract/projectManagement.ts';
import { getCustomer, putAsset, putCustomer, putSite } from '../../../contract/referentials.ts';
import { putSkill } from '../../../contract/staff.ts';
import { ImportValidationError, importerRegistry, validateImport } from '../../cli/importFile.ts';
import { expectErrors } from '../../testing/api.ts';
import type { TestApp } from '../../testing/harness.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createReferentialsTestApp();
  await t.db
    .insertInto('custom_field_definitions')
    .values({
      tenant_id: t.tenants.ROOT,
      entity: 'customer',
      code: 'SEGMENT',
      label: 'Segment',
      type: 'textValue',
      mandatory: false,
    })
    .execute();
});
afterAll(() => t.close());

const customer = { name: 'Street', addressDetails: { city: 'Lyon' } };
const enc = encodeURIComponent;
const putCustomerAs = (customerCode: string, body: unknown) =>
  t.api(putCustomer, { params: { customerCode }, body });
const customerAt = (customerCode: string) => t.api(getCustomer, { params: { customerCode } });

describe('the rule', () => {
  it('is ASCII letters, digits, "-", "_", "."; folding touches ASCII letters only', () => {
    for (const ok of ['ACME', 'a-b_c.9']) expect(CODE_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['straße', 'ı', 'ſ', 'É', 'Ⅻ', '٣', 'ｆｕｌｌ', 'A B', ''])
      expect(CODE_PATTERN.test(bad), bad).toBe(false);
    expect(foldCode('acme-1.x_y')).toBe('ACME-1.X_Y');
    expect(foldCode('straße')).toBe('STRAßE');
    expect(foldCode('ı')).toBe('ı');
    expect(Code().safeParse('ı').success).toBe(false);
  });
});

describe('service: non-ASCII codes are refused, never folded onto an ASCII one', () => {
  it('path codes: 400 customercode.invalid, and the ASCII record is not reached', async () => {
    expect((await putCustomerAs('STRASSE', customer)).statusCode).toBe(201);
    expect((await putCustomerAs('I', customer)).statusCode).toBe(201);
    for (const bad of ['straße', 'STRAßE', 'ı', 'ſtrasse']) {
      const put = await putCustomerAs(enc(bad), { ...customer, name: 'Overwritten' });
      expectErrors(put, 400, 'referentials.customer.customercode.invalid');
      expectErrors(await customerAt(enc(bad)), 400, 'referentials.customer.customercode.invalid');
    }
    expect((await customerAt('strasse')).json().name).toBe('Street');
    expect((await customerAt('i')).json().name).toBe('Street');
  });

  it('body codes: 400 with the field code (parent, office, site customer, asset site)', async () => {
    const cases: [() => ReturnType<typeof t.api>, string][] = [
      [
        () => putCustomerAs('C-BODY', { ...customer, parentCustomerCode: 'ı' }),
        'referentials.customer.parentcustomercode.invalid',
      ],
      [
        () => putCustomerAs('C-BODY', { ...customer, officeCode: 'nörth' }),
        'referentials.customer.officecode.invalid',
      ],
      [
        () =>
          t.api(putSite, {
            params: { siteCode: 'S-BODY' },
            body: {
              name: 'S',
              customerCode: 'ı',
              location: { addressDetails: { address: '1', city: 'Lyon' } },
            },
          }),
        'referentials.site.customercode.invalid',
      ],
      [
        () => t.api(putAsset, { params: { assetCode: 'A-BODY' }, body: { name: 'A', siteCode: 'ſite' } }),
        'referentials.asset.sitecode.invalid',
      ],
    ];
    for (const [put, code] of cases) expectErrors(await put(), 400, code);
    expect((await customerAt('C-BODY')).statusCode).toBe(404);
  });

  it('catalog codes: 400 itemcode.invalid and skillcode.invalid', async () => {
    const item = await t.api(putItem, { params: { itemCode: enc('écrou') }, body: { name: 'Nut' } });
    expectErrors(item, 400, 'businessorganization.item.itemcode.invalid');
    const skill = await t.api(putSkill, { params: { skillCode: enc('ı') }, body: { name: 'I' } });
    expectErrors(skill, 400, 'staff.skill.skillcode.invalid');
  });

  it('custom field codes fold ASCII only: `ſegment` is unknown, not SEGMENT', async () => {
    const ok = await putCustomerAs('C-CF', { ...customer, customFields: { segment: { textValue: 'x' } } });
    expect(ok.statusCode).toBe(201);
    const res = await putCustomerAs('C-CF', { ...customer, customFields: { ſegment: { textValue: 'y' } } });
    expectErrors(res, 400, 'referentials.customer.custom.field.unknown');
    expect((await customerAt('C-CF')).json().customFields).toEqual({
      SEGMENT: { textValue: 'x' },
    });
  });
});

describe('import files and link bodies', () => {
  it('an import row with a non-ASCII code is refused by JSON path before anything is written', () => {
    const run = () =>
      validateImport(
        {
          customers: [
            { customerCode: 'STRASSE', ...customer },
            { customerCode: 'straße', ...customer },
          ],
          items: [{ itemCode: 'ı', name: 'I' }],
        },
        importerRegistry(),
      );
    expect(run).toThrow(ImportValidationError);
    try {
      run();
    } catch (e) {
      const paths = (e as ImportValidationError).problems.map((p) => p.path);
      expect(paths).toEqual(expect.arrayContaining(['customers[1].customerCode', 'items[0].itemCode']));
    }
  });

  it('project link bodies: a non-ASCII code never becomes the ASCII code (it stays unknown)', () => {
    expect(jobCode('phase', 'ı')).toBe('ı');
    expect(jobCode('workOrder', 'wo-1')).toBe('WO-1');
    const link = readProjectLink({
      type: 'workOrder',
      code: 'ſtart',
      insertion: { insertionMode: 'before', jobType: 'phase', relativePosition: 'ı' },
    });
    expect(link.code).toBe('ſTART');
    expect(CODE_PATTERN.test(link.code ?? '')).toBe(false);
    expect(link.insertion.relative?.code).toBe('ı');
  });
});
