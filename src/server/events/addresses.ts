/**
 * Where callbacks may go (no SSRF into the operator's network): `https://` to a public
 * address; private, loopback, link-local and other non-global addresses only when the
 * instance allows them (`FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1`), and then `http://` as well,
 * but only to such addresses. Checked on the URL when a subscription is created, and again
 * on every address the host name resolves to before each delivery (worker.ts connects to
 * the address it checked, so a DNS answer cannot change between check and connection).
 */
import { isLocalhostName, isPrivateAddress, literalAddress } from '../../contract/addresses.ts';
import { WebhooksCodes } from '../../contract/webhooks.ts';

export { isPrivateAddress, literalAddress };

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
