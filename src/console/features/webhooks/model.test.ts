/**
 * The pure logic of the Webhooks pages: the rules the creation form checks as the user
 * types (held to the service's own checks where they meet), the form -> body mapping, the
 * service codes -> fields, the secret generator, the limit, and the log's formats.
 */
import { describe, expect, it } from 'vitest';
import { RESERVED_HEADERS, SubscriptionBody } from '../../../contract/webhooks.ts';
import { checkCallbackUrl as serviceUrlCheck } from '../../../server/events/addresses.ts';
import { subscriptionFormSchema } from './form.ts';
import {
  checkCallbackUrl,
  checkSecret,
  emptyForm,
  fieldForServiceError,
  formatDateTime,
  generateSecret,
  type HeaderRow,
  headerProblems,
  hostKind,
  lastAnswer,
  limitState,
  maskValue,
  relativeTime,
  toSubscriptionBody,
} from './model.ts';
import { validateSubscriptionSearch } from './search.ts';

const row = (name: string, value = 'v'): HeaderRow => ({ name, value });

describe('the callback URL, checked as typed', () => {
  it('requires a complete http(s) URL without credentials', () => {
    expect(checkCallbackUrl('')).toEqual({ problem: 'required' });
    expect(checkCallbackUrl('   ')).toEqual({ problem: 'required' });
    expect(checkCallbackUrl('example.com/hooks')).toEqual({ problem: 'scheme' });
    expect(checkCallbackUrl('ftp://example.com/hooks')).toEqual({ problem: 'scheme' });
    expect(checkCallbackUrl('https://')).toEqual({ problem: 'notUrl' });
    expect(checkCallbackUrl('https://exa mple.com')).toEqual({ problem: 'notUrl' });
    expect(checkCallbackUrl('https://user:pw@example.com/')).toEqual({ problem: 'credentials' });
    expect(checkCallbackUrl(`https://example.com/${'a'.repeat(2048)}`)).toEqual({ problem: 'tooLong' });
    expect(checkCallbackUrl('https://example.com/hooks?x=1')).toEqual({});
  });

  it('https is required: http:// to a public address is always refused', () => {
    expect(checkCallbackUrl('http://8.8.8.8/hooks')).toEqual({ problem: 'httpPublic' });
    expect(checkCallbackUrl('http://[2606:4700::1111]/')).toEqual({ problem: 'httpPublic' });
  });

  it("says what depends on the operator's setting for private addresses instead of refusing it", () => {
    expect(checkCallbackUrl('http://127.0.0.1:8080/hooks')).toEqual({ note: 'httpNeedsSetting' });
    expect(checkCallbackUrl('http://localhost/hooks')).toEqual({ note: 'httpNeedsSetting' });
    expect(checkCallbackUrl('http://receiver.internal/hooks')).toEqual({ note: 'httpNeedsSetting' });
    expect(checkCallbackUrl('https://10.1.2.3/hooks')).toEqual({ note: 'privateNeedsSetting' });
    expect(checkCallbackUrl('https://[::1]/hooks')).toEqual({ note: 'privateNeedsSetting' });
    expect(checkCallbackUrl('https://169.254.169.254/latest')).toEqual({ note: 'privateNeedsSetting' });
  });

  it('tells private, public and named hosts apart as the service does', () => {
    for (const host of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '0.0.0.0'])
      expect(hostKind(host), host).toBe('private');
    for (const host of [
      '[::1]',
      '[fe80::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::a00:1]',
      'localhost',
    ])
      expect(hostKind(host), host).toBe('private');
    for (const host of ['8.8.8.8', '172.32.0.1', '[2606:4700::1111]', '[::ffff:8.8.8.8]'])
      expect(hostKind(host), host).toBe('public');
    expect(hostKind('example.com')).toBe('name');
  });

  it('never lets through what the service refuses, with or without private addresses allowed', () => {
    const urls = [
      'https://example.com/a',
      'http://example.com/a',
      'http://8.8.8.8/a',
      'https://8.8.8.8/a',
      'http://127.0.0.1:9/a',
      'https://[::1]/a',
      'http://[fe80::1]/a',
      'https://user@example.com/',
      'ftp://example.com/',
      'http://localhost/',
    ];
    for (const url of urls) {
      const console = checkCallbackUrl(url);
      const strict = serviceUrlCheck(url, false);
      const allowed = serviceUrlCheck(url, true);
      // Refused whatever the setting: the console refuses it too.
      if (strict && allowed) expect(console.problem, url).toBeDefined();
      // Accepted whatever the setting: no problem, no note.
      if (!strict && !allowed) expect(console, url).toEqual({});
      // Depends on the setting: a note, not a refusal.
      if (!!strict !== !!allowed) expect(console, url).toEqual({ note: expect.any(String) });
    }
  });
});

describe('custom header names and values', () => {
  it('a name is an RFC 9110 token', () => {
    expect(headerProblems([row('X-Api-Key')])).toEqual([{}]);
    expect(headerProblems([row("x!#$%&'*+.^_`|~9")])).toEqual([{}]);
    expect(headerProblems([row('X Api')])).toEqual([{ name: 'nameInvalid' }]);
    expect(headerProblems([row('x:y')])).toEqual([{ name: 'nameInvalid' }]);
    expect(headerProblems([row('é')])).toEqual([{ name: 'nameInvalid' }]);
    expect(headerProblems([row('a'.repeat(101))])).toEqual([{ name: 'nameInvalid' }]);
    expect(headerProblems([{ name: '', value: 'secret' }])).toEqual([{ name: 'nameRequired' }]);
  });

  it('names the service or the connection set are reserved, whatever their case', () => {
    for (const name of RESERVED_HEADERS) {
      expect(headerProblems([row(name)]), name).toEqual([{ name: 'nameReserved' }]);
      expect(headerProblems([row(name.toUpperCase())]), name).toEqual([{ name: 'nameReserved' }]);
    }
    expect(headerProblems([row('X-Service-Events')])).toEqual([{}]);
  });

  it('a name used twice without regard to case is refused on the second row', () => {
    expect(headerProblems([row('X-Tenant'), row('x-tenant'), row('X-Other')])).toEqual([
      {},
      { name: 'nameDuplicate' },
      {},
    ]);
  });

  it('values are text without line breaks or control characters, at most 1000', () => {
    expect(headerProblems([row('A', 'Bearer abc def')])).toEqual([{}]);
    expect(headerProblems([row('A', '')])).toEqual([{}]);
    expect(headerProblems([row('A', 'a\r\nInjected: 1')])).toEqual([{ value: 'valueInvalid' }]);
    expect(headerProblems([row('A', 'x'.repeat(1001))])).toEqual([{ value: 'valueInvalid' }]);
  });

  it('an empty row is not checked (and not sent)', () => {
    expect(headerProblems([{ name: '  ', value: '' }])).toEqual([{}]);
  });
});

describe('the secret', () => {
  it('is optional, 16 to 256 visible ASCII characters', () => {
    expect(checkSecret('')).toBeUndefined();
    expect(checkSecret('a'.repeat(15))).toBe('tooShort');
    expect(checkSecret('a'.repeat(16))).toBeUndefined();
    expect(checkSecret('a'.repeat(257))).toBe('tooLong');
    expect(checkSecret('with a space in it')).toBe('characters');
    expect(checkSecret('accentué-accentué')).toBe('characters');
  });

  it('is generated from 32 random bytes in the Standard Webhooks form', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(checkSecret(secret)).toBeUndefined();
    expect(generateSecret()).not.toBe(secret);
    expect(generateSecret((b) => b.fill(255))).toBe(`whsec_${Buffer.alloc(32, 255).toString('base64')}`);
  });
});

describe('the form -> the request body', () => {
  it('keeps the spec order of event types, trims the URL, leaves out an empty secret and no headers', () => {
    const body = toSubscriptionBody({
      eventTypes: ['status.scheduled', 'asset.upsert'],
      callbackUrl: '  https://example.com/hooks ',
      secret: '',
      headers: [],
    });
    expect(body).toEqual({
      eventTypes: ['asset.upsert', 'status.scheduled'],
      callbackUrl: 'https://example.com/hooks',
    });
    expect(SubscriptionBody.safeParse(body).success).toBe(true);
  });

  it('sends the secret as typed and the headers as an object, blank rows dropped, names trimmed', () => {
    const body = toSubscriptionBody({
      eventTypes: ['asset.upsert'],
      callbackUrl: 'https://example.com/hooks',
      secret: 'whsec_abcdefghijklmnop',
      headers: [
        { name: ' X-Tenant ', value: 'north' },
        { name: '', value: '' },
        { name: 'Authorization', value: 'Bearer t0ken' },
      ],
    });
    expect(body).toEqual({
      eventTypes: ['asset.upsert'],
      callbackUrl: 'https://example.com/hooks',
      secret: 'whsec_abcdefghijklmnop',
      headers: { 'X-Tenant': 'north', Authorization: 'Bearer t0ken' },
    });
  });

  it('the schema refuses on the fields with i18n keys, and answers a body the contract accepts', () => {
    const refused = subscriptionFormSchema.safeParse({
      eventTypes: [],
      callbackUrl: 'http://8.8.8.8/',
      secret: 'short',
      headers: [row('x-service-secret'), row('Ok', 'a\nb')],
    });
    expect(refused.success).toBe(false);
    const issues = refused.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual(
      expect.arrayContaining([
        ['eventTypes', 'webhooks:form.eventTypesRequired'],
        ['callbackUrl', 'webhooks:form.url.httpPublic'],
        ['secret', 'webhooks:form.secret.tooShort'],
        ['headers.0.name', 'webhooks:form.headers.nameReserved'],
        ['headers.1.value', 'webhooks:form.headers.valueInvalid'],
      ]),
    );
    const ok = subscriptionFormSchema.safeParse({
      ...emptyForm(),
      eventTypes: ['asset.upsert'],
      callbackUrl: 'http://127.0.0.1:4000/hooks',
      headers: [row('X-Tenant', 'e2e')],
    });
    expect(ok.data).toEqual({
      eventTypes: ['asset.upsert'],
      callbackUrl: 'http://127.0.0.1:4000/hooks',
      headers: { 'X-Tenant': 'e2e' },
    });
  });
});

describe('service refusals -> form fields', () => {
  const rows = [row('X-Tenant'), row('x-service-event'), row('Bad Name')];
  it('puts each webhooks code on its field', () => {
    expect(fieldForServiceError({ code: 'webhooks.eventtypes.unknown' }, rows)).toBe('eventTypes');
    expect(fieldForServiceError({ code: 'webhooks.eventtypes.mandatory' }, rows)).toBe('eventTypes');
    expect(fieldForServiceError({ code: 'webhooks.callbackurl.private' }, rows)).toBe('callbackUrl');
    expect(fieldForServiceError({ code: 'webhooks.callbackurl.https.required' }, rows)).toBe('callbackUrl');
    expect(fieldForServiceError({ code: 'webhooks.callbackurl.invalid' }, rows)).toBe('callbackUrl');
    expect(fieldForServiceError({ code: 'webhooks.secret.invalid' }, rows)).toBe('secret');
    expect(fieldForServiceError({ code: 'webhooks.headers.invalid' }, rows)).toBe('headers');
  });

  it('puts a header refusal on the rows its message names', () => {
    expect(
      fieldForServiceError(
        {
          code: 'webhooks.headers.name.reserved',
          message: 'headers: "x-service-event" is set by the service',
        },
        rows,
      ),
    ).toBe('headers.1.name');
    expect(
      fieldForServiceError(
        {
          code: 'webhooks.headers.name.invalid',
          message: 'headers: "Bad Name" is not a header name; "x-tenant" appears twice',
        },
        rows,
      ),
    ).toEqual(['headers.0.name', 'headers.2.name']);
    expect(
      fieldForServiceError(
        { code: 'webhooks.headers.value.invalid', message: 'headers: "X-Tenant": the value…' },
        rows,
      ),
    ).toBe('headers.0.value');
    expect(
      fieldForServiceError({ code: 'webhooks.headers.name.invalid', message: 'headers: "Gone" …' }, rows),
    ).toBe('headers');
  });

  it('leaves the rest to the alert', () => {
    expect(fieldForServiceError({ code: 'webhooks.subscription.limit' }, rows)).toBeNull();
    expect(fieldForServiceError({ code: 'webhooks.field.unknown' }, rows)).toBeNull();
    expect(fieldForServiceError({ code: 'internal.server.error' }, rows)).toBeNull();
  });
});

describe('the limit of 3', () => {
  it('says how many remain, and when it is reached', () => {
    expect(limitState(0)).toEqual({ used: 0, limit: 3, remaining: 3, reached: false });
    expect(limitState(2)).toEqual({ used: 2, limit: 3, remaining: 1, reached: false });
    expect(limitState(3)).toEqual({ used: 3, limit: 3, remaining: 0, reached: true });
  });
});

describe('the delivery log', () => {
  it('shows times to the second in UTC, and how far the next retry is', () => {
    expect(formatDateTime('2030-01-02T03:04:05Z', 'en')).toBe('Jan 2, 2030, 3:04:05 AM UTC');
    expect(formatDateTime(null, 'en')).toBeNull();
    const now = Date.parse('2030-01-02T03:04:00Z');
    expect(relativeTime('2030-01-02T03:04:05Z', now, 'en')).toBe('in 5 seconds');
    expect(relativeTime('2030-01-02T03:06:00Z', now, 'en')).toBe('in 2 minutes');
    expect(relativeTime('2030-01-02T02:04:00Z', now, 'fr')).toBe('il y a 1 heure');
  });

  it('the last answer: a status, an error without one, or nothing yet', () => {
    expect(lastAnswer({ attempts: 0, lastStatusCode: null, lastError: null })).toEqual({ kind: 'none' });
    expect(lastAnswer({ attempts: 1, lastStatusCode: 204, lastError: null })).toEqual({
      kind: 'status',
      code: 204,
      ok: true,
    });
    expect(lastAnswer({ attempts: 2, lastStatusCode: 500, lastError: 'status 500' })).toEqual({
      kind: 'status',
      code: 500,
      ok: false,
    });
    expect(lastAnswer({ attempts: 1, lastStatusCode: null, lastError: 'timeout' })).toEqual({
      kind: 'error',
      error: 'timeout',
    });
  });

  it('hides header values until asked', () => {
    expect(maskValue('Bearer secret-token')).toBe('••••••••••••');
    expect(maskValue('ab')).toBe('••••••');
    expect(maskValue('')).toBe('');
  });

  it('reads the status filter and the open delivery from the URL, ignoring anything else', () => {
    const id = '0b5b0f3e-8f0c-4c55-9a43-3f1f4f1f0a11';
    expect(validateSubscriptionSearch({ status: 'failed', delivery: id.toUpperCase() })).toEqual({
      status: 'failed',
      delivery: id,
    });
    expect(validateSubscriptionSearch({ status: 'lost', delivery: 'x' })).toEqual({
      status: undefined,
      delivery: undefined,
    });
  });
});
