/**
 * Where callbacks may go (no SSRF into the operator's network): `https://` to a public
 * address; private, loopback, link-local and other non-global addresses only when the
 * instance allows them (`FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1`), and then `http://` as well,
 * but only to such addresses. Checked on the URL when a subscription is created, and again
 * on every address the host name resolves to before each delivery (worker.ts connects to
 * the address it checked, so a DNS answer cannot change between check and connection).
 */
import { isIP } from 'node:net';
import { WebhooksCodes } from '../../contract/webhooks.ts';

/** IPv4 ranges that are not global unicast (IANA special-purpose registry). */
const V4_RANGES: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const V4 = V4_RANGES.map(([base, bits]) => ({ base: v4ToInt(base), size: 2 ** (32 - bits) }));

function privateV4(address: string): boolean {
  const n = v4ToInt(address);
  return V4.some((r) => n >= r.base && n < r.base + r.size);
}

/** The 8 groups of an IPv6 address (with `::` expanded and an embedded IPv4 converted). */
function v6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

function privateV6(address: string): boolean {
  const g = v6Groups(address);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return true; // :: unspecified
  if (zeros(7) && g[7] === 1) return true; // ::1 loopback
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 rules.
  if (zeros(5) && g[5] === 0xffff) return privateV4(v4FromGroups(g[6], g[7]));
  if (zeros(6)) return privateV4(v4FromGroups(g[6], g[7]));
  // NAT64 (64:ff9b::/96) carries an IPv4 address too.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return privateV4(v4FromGroups(g[6], g[7]));
  if (g[0] === 0x2002) return privateV4(v4FromGroups(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // 100::/64 discard-only
  return false;
}

/** Whether an IP address is private, loopback, link-local or otherwise not global. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address.split('%')[0]);
  if (kind === 4) return privateV4(address);
  if (kind === 6) return privateV6(address);
  throw new Error(`not an IP address: ${address}`);
}

/** The host of a URL as an IP address when it is one (without IPv6 brackets). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

export interface UrlRefusal {
  code: string;
  message: string;
}

/**
 * The check of a callback URL when a subscription is created (no DNS: names are checked on
 * their addresses at delivery time). Undefined when acceptable.
 */
export function checkCallbackUrl(text: string, allowPrivate: boolean): UrlRefusal | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { code: WebhooksCodes.callbackUrlInvalid, message: 'callbackUrl is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { code: WebhooksCodes.callbackUrlInvalid, message: 'callbackUrl must be an https:// URL' };
  if (url.username || url.password)
    return {
      code: WebhooksCodes.callbackUrlInvalid,
      message: 'callbackUrl cannot carry credentials: use a custom header or the secret',
    };
  if (!url.hostname) return { code: WebhooksCodes.callbackUrlInvalid, message: 'callbackUrl has no host' };
  const literal = literalAddress(url.hostname);
  const local = literal ? isPrivateAddress(literal) : isLocalhostName(url.hostname);
  if (local && !allowPrivate)
    return {
      code: WebhooksCodes.callbackUrlPrivate,
      message: `${url.hostname} is a private, loopback or link-local address: callbacks do not go there on this instance`,
    };
  if (url.protocol === 'http:') {
    if (!allowPrivate)
      return { code: WebhooksCodes.callbackUrlHttps, message: 'callbackUrl must use https://' };
    if (literal && !local)
      return {
        code: WebhooksCodes.callbackUrlHttps,
        message: 'http:// is allowed only to private, loopback or link-local addresses: use https://',
      };
  }
  return undefined;
}

/**
 * The check of the addresses a callback host resolved to, before connecting: the message
 * of the refusal, or undefined when every address is acceptable.
 */
export function refuseAddresses(
  url: URL,
  addresses: readonly string[],
  allowPrivate: boolean,
): string | undefined {
  for (const address of addresses) {
    const isPrivate = isPrivateAddress(address);
    if (isPrivate && !allowPrivate)
      return `${url.hostname} resolves to ${address}, a private, loopback or link-local address: not allowed on this instance`;
    if (!isPrivate && url.protocol === 'http:')
      return `${url.hostname} resolves to ${address}, a public address: http:// is allowed only to private addresses`;
  }
  return undefined;
}
