import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { charsetOf } from './encoding.ts';

/** docs/security.md, encodings. JSON bodies are UTF-8; anything else is refused, never altered. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** app.inject, not t.api: the body is raw bytes (a Buffer) under any content type. */
async function put(code: string, payload: string | Buffer, contentType = 'application/json') {
  return t.app.inject({
    method: 'PUT',
    url: pathOf(putCustomer, { customerCode: code }),
    headers: { authorization: `Bearer ${await t.token()}`, 'content-type': contentType },
    payload,
  });
}
const customers = async () =>
  (await t.db.selectFrom('customers').select('name').execute()).map((r) => r.name).sort();

function expectRefusal(res: Awaited<ReturnType<typeof put>>, status: number, code: string) {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = res.json();
  expect(body.errors.map((e: { code: string }) => e.code)).toEqual([code]);
  expect(body.errorReference).toEqual(expect.any(String));
}

describe('JSON body encodings', () => {
  it('refuses bytes that are not UTF-8 with 400 <domain>.invalid.json, storing nothing', async () => {
    const before = await customers();
    const bad = [
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"name":"\xff\xfe"}
      Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]), // Latin-1 é
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), // CESU surrogate
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), // overlong /
      Buffer.concat([Buffer.from('{"name":"x'), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from('"}')]), // truncated
    ];
    for (const payload of bad)
      expectRefusal(await put('ENC-BAD', payload), 400, 'referentials.customer.invalid.json');
    expect(await customers()).toEqual(before);
    expect((await t.api(getCustomer, { params: { customerCode: 'ENC-BAD' } })).statusCode).toBe(404);
  });

  it('refuses a lone surrogate escape as an invalid field (it would be stored as U+FFFD)', async () => {
    expectRefusal(await put('ENC-SUR', '{"name":"a\\ud800b"}'), 400, 'referentials.customer.name.invalid');
    expectRefusal(
      await put('ENC-SUR', '{"name":"a","description":"\\udc00"}'),
      400,
      'referentials.customer.description.invalid',
    );
    expect((await t.api(getCustomer, { params: { customerCode: 'ENC-SUR' } })).statusCode).toBe(404);
  });

  it('stores well-formed UTF-8 as sent, escaped pairs and raw bytes alike', async () => {
    const name = 'Café 😀 Ωmega ß';
    expect(
      (await put('ENC-OK', Buffer.from(JSON.stringify({ name, addressDetails: { city: 'L' } }), 'utf8')))
        .statusCode,
    ).toBe(201);
    expect((await t.api(getCustomer, { params: { customerCode: 'ENC-OK' } })).json().name).toBe(name);
    expect((await put('ENC-OK', '{"name":"\\ud83d\\ude00","addressDetails":{"city":"L"}}')).statusCode).toBe(
      204,
    );
    expect((await t.api(getCustomer, { params: { customerCode: 'ENC-OK' } })).json().name).toBe('😀');
  });

  it('accepts charset=utf-8 however written, and no charset', async () => {
    for (const [i, type] of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="utf-8"',
      'application/json; charset=utf8',
    ].entries()) {
      expect(
        (await put(`ENC-CS${i}`, '{"name":"x","addressDetails":{"city":"L"}}', type)).statusCode,
        type,
      ).toBe(201);
    }
  });

  it('refuses any other charset with 415 and the error body, storing nothing', async () => {
    const before = await customers();
    const utf16 = Buffer.from('{"name":"x","addressDetails":{"city":"L"}}', 'utf16le');
    for (const type of [
      'application/json; charset=utf-16',
      'application/json; charset=UTF-16LE',
      'application/json; charset=iso-8859-1',
      'application/json; charset=us-ascii',
      'application/json; charset=',
      'application/merge-patch+json; charset=latin1',
    ]) {
      expectRefusal(await put('ENC-CHARSET', utf16, type), 415, 'request.mediatype.unsupported');
    }
    expect(await customers()).toEqual(before);
  });

  it('reads the charset parameter', () => {
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf('application/json; Charset="UTF-16"')).toBe('utf-16');
    expect(charsetOf('application/json;charset=utf-8;x=1')).toBe('utf-8');
  });
});
