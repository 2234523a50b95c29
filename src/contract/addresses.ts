/**
 * Which addresses are private (not global unicast): the one rule the service applies to
 * webhook callbacks (no SSRF into the operator's network, src/server/events/addresses.ts)
 * and the console's webhook form shows. Classified by ipaddr.js, which knows the special
 * ranges of IANA's registries: loopback, private, link-local (cloud metadata), carrier-
 * grade NAT, documentation, multicast, reserved, and the IPv6 forms that carry or reach an
 * IPv4 address (IPv4-translated ::ffff:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 * Teredo 2001::/32, 6to4 2002::/16...). Only global unicast is public; an IPv4-mapped
 * address (::ffff:a.b.c.d) is its IPv4 address; every other special IPv6 range is private.
 */
import ipaddr from 'ipaddr.js';

const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** An IP address in canonical text form (an IPv4 as four decimals; an IPv6 without brackets). */
export function isIpAddress(text: string): boolean {
  const bare = text.split('%')[0];
  return bare.includes(':') ? ipaddr.IPv6.isValid(bare) : ipaddr.IPv4.isValidFourPartDecimal(bare);
}

/** Whether an IP address is private, loopback, link-local or otherwise not global unicast. */
export function isPrivateAddress(address: string): boolean {
  if (!isIpAddress(address)) throw new Error(`not an IP address: ${address}`);
  let parsed = ipaddr.parse(address.split('%')[0]);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // IPv4-compatible (::a.b.c.d, deprecated): ipaddr.js calls it unicast once in hex form.
    if (v6.match(IPV4_COMPATIBLE)) return true;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() !== 'unicast';
}

/** The host of a URL as an IP address when it is one (without IPv6 brackets). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIpAddress(bare) ? bare : undefined;
}

export const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/**
 * The host of a parsed URL: a private address (or `localhost`), a public address, or a
 * name (whose addresses the service checks when it delivers).
 */
export function hostKind(hostname: string): 'private' | 'public' | 'name' {
  const literal = literalAddress(hostname);
  if (literal) return isPrivateAddress(literal) ? 'private' : 'public';
  return isLocalhostName(hostname) ? 'private' : 'name';
}
