/** Pure parts of delivery: address rules, back-off, signature, configuration. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostKind } from '../../contract/addresses.ts';
import { WebhooksCodes as C } from '../../contract/webhooks.ts';
import { checkCallbackUrl, isPrivateAddress, refuseAddresses } from './addresses.ts';
import { parseWebhooksConfig } from './config.ts';
import { actorOf } from './index.ts';
import { callbackHeaders } from './payload.ts';
import { deliveryTimes, RETRY_MAX_DELAY_MS, retryDelayMs } from './schedule.ts';
import { signature } from './signature.ts';

describe('addresses', () => {
  it('tells private, loopback, link-local and other non-global addresses from public ones', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.2.3',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:0101::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2a00:1450::1',
    ])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses every IPv6 form that carries or reaches a non-global IPv4 address (issue 24, 5)', () => {
    // The forms of the issue, then the other special ranges ipaddr.js knows.
    const forms = {
      'IPv4-translated ::ffff:0:7f00:1 (127.0.0.1)': '::ffff:0:7f00:1',
      'Teredo 2001:0:4136:e378:8000:63bf:80ff:fffe (embeds 127.0.0.1)':
        '2001:0:4136:e378:8000:63bf:80ff:fffe',
      'NAT64 local-use 64:ff9b:1::a9fe:a9fe (169.254.169.254)': '64:ff9b:1::a9fe:a9fe',
      'NAT64 64:ff9b::a9fe:a9fe (169.254.169.254)': '64:ff9b::a9fe:a9fe',
      'NAT64 64:ff9b::7f00:1 (127.0.0.1)': '64:ff9b::7f00:1',
      '6to4 2002:7f00:1:: (127.0.0.1)': '2002:7f00:1::',
      '6to4 2002:a9fe:a9fe::1 (169.254.169.254)': '2002:a9fe:a9fe::1',
      'IPv4-mapped ::ffff:169.254.169.254': '::ffff:169.254.169.254',
      'IPv4-compatible ::127.0.0.1': '::127.0.0.1',
      'documentation 2001:db8::1': '2001:db8::1',
      'discard 100::1': '100::1',
      'benchmarking 2001:2::1': '2001:2::1',
      'site-local fec0::1': 'fec0::1',
    };
    for (const [name, address] of Object.entries(forms)) {
      expect(isPrivateAddress(address), name).toBe(true);
      expect(checkCallbackUrl(`https://[${address}]/hook`, false)?.code, name).toBe(C.callbackUrlPrivate);
      // The console's form check is the same rule (src/contract/addresses.ts).
      expect(hostKind(`[${address}]`), name).toBe('private');
      expect(refuseAddresses(new URL('https://hooks.example.com/'), [address], false), name).toMatch(
        /private, loopback or link-local/,
      );
    }
    expect(hostKind('[2606:4700::1111]')).toBe('public');
    expect(hostKind('hooks.example.com')).toBe('name');
  });

  it('checks a callback URL at creation', () => {
    expect(checkCallbackUrl('https://hooks.example.com/x', false)).toBeUndefined();
    expect(checkCallbackUrl('http://hooks.example.com/x', false)?.code).toBe(C.callbackUrlHttps);
    expect(checkCallbackUrl('https://127.0.0.1/x', false)?.code).toBe(C.callbackUrlPrivate);
    expect(checkCallbackUrl('https://LOCALHOST./x', false)?.code).toBe(C.callbackUrlPrivate);
    // Allowed: private addresses, and http:// to them (or to a name, checked after DNS).
    expect(checkCallbackUrl('https://127.0.0.1/x', true)).toBeUndefined();
    expect(checkCallbackUrl('http://10.0.0.5:8080/x', true)).toBeUndefined();
    expect(checkCallbackUrl('http://receiver.internal/x', true)).toBeUndefined();
    expect(checkCallbackUrl('http://8.8.8.8/x', true)?.code).toBe(C.callbackUrlHttps);
    expect(checkCallbackUrl('mailto:a@b.example', true)?.code).toBe(C.callbackUrlInvalid);
    expect(checkCallbackUrl('not a url', true)?.code).toBe(C.callbackUrlInvalid);
  });

  it('checks the resolved addresses at delivery', () => {
    const https = new URL('https://h.example/x');
    const http = new URL('http://h.example/x');
    expect(refuseAddresses(https, ['93.184.216.34'], false)).toBeUndefined();
    // One private address among public ones is enough to refuse.
    expect(refuseAddresses(https, ['93.184.216.34', '10.0.0.1'], false)).toContain('10.0.0.1');
    expect(refuseAddresses(https, ['10.0.0.1'], true)).toBeUndefined();
    expect(refuseAddresses(http, ['10.0.0.1'], true)).toBeUndefined();
    expect(refuseAddresses(http, ['93.184.216.34'], true)).toContain('public address');
  });
});

describe('back-off', () => {
  it('doubles from 5 s with jitter in [75 %, 100 %], never more than 10 minutes apart, times the scale', () => {
    expect(retryDelayMs(1, 1, 1)).toBe(5000);
    expect(retryDelayMs(1, 1, 0)).toBe(3750);
    expect(retryDelayMs(2, 1, 1)).toBe(10_000);
    expect(retryDelayMs(8, 1, 1)).toBe(RETRY_MAX_DELAY_MS);
    expect(retryDelayMs(3, 0.01, 1)).toBe(200);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const d = retryDelayMs(n, 1, r);
        const nominal = Math.min(RETRY_MAX_DELAY_MS, 5000 * 2 ** (n - 1));
        return d <= RETRY_MAX_DELAY_MS && d >= 0.75 * nominal && d <= nominal;
      }),
    );
  });

  it('scales every duration', () => {
    expect(deliveryTimes(1)).toMatchObject({
      timeoutMs: 5000,
      windowMs: 3_600_000,
      retentionMs: 15 * 86_400_000,
    });
    expect(deliveryTimes(0.001)).toMatchObject({ timeoutMs: 5, windowMs: 3600 });
  });
});

describe('signature and headers', () => {
  it('matches the Standard Webhooks reference vector', () => {
    expect(
      signature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('sends custom headers but never lets them replace the service headers', () => {
    const h = callbackHeaders(
      { event_type: 'asset.upsert', id: 'x', secret: null, headers: { 'X-A': '1' } },
      '{}',
    );
    expect(h).toEqual({
      'X-A': '1',
      'content-type': 'application/json',
      'user-agent': 'Fieldwork-Webhooks/1',
      'x-service-event': 'asset.upsert',
    });
  });
});

describe('actor', () => {
  it('is the application name for the API, the login for the console, the command for a process', () => {
    expect(actorOf({ kind: 'application', name: 'ERP' })).toEqual({ type: 'webService', identifier: 'ERP' });
    expect(actorOf({ kind: 'user', name: 'alice' })).toEqual({ type: 'webUser', identifier: 'alice' });
    expect(actorOf({ process: 'fieldwork import' })).toEqual({
      type: 'process',
      identifier: 'fieldwork import',
    });
  });
});

describe('configuration', () => {
  it('reads FIELDWORK_WEBHOOKS_* with their defaults and refuses nonsense', () => {
    expect(parseWebhooksConfig({})).toEqual({
      worker: true,
      allowPrivate: false,
      timeScale: 1,
      concurrency: 16,
    });
    expect(
      parseWebhooksConfig({
        FIELDWORK_WEBHOOKS_WORKER: '0',
        FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
        FIELDWORK_WEBHOOKS_TIME_SCALE: '0.001',
        FIELDWORK_WEBHOOKS_CONCURRENCY: '4',
      }),
    ).toEqual({ worker: false, allowPrivate: true, timeScale: 0.001, concurrency: 4 });
    expect(() => parseWebhooksConfig({ FIELDWORK_WEBHOOKS_TIME_SCALE: '0' })).toThrow(/TIME_SCALE/);
    expect(() => parseWebhooksConfig({ FIELDWORK_WEBHOOKS_TIME_SCALE: 'fast' })).toThrow(/TIME_SCALE/);
    expect(() => parseWebhooksConfig({ FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toThrow(/ALLOW_PRIVATE/);
    expect(() => parseWebhooksConfig({ FIELDWORK_WEBHOOKS_CONCURRENCY: '0' })).toThrow(/CONCURRENCY/);
  });
});
