/**
 * Standard Webhooks signature (https://www.standardwebhooks.com): headers `webhook-id`,
 * `webhook-timestamp` (Unix seconds of the attempt) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), sent when the subscription has a
 * secret. A secret of the form `whsec_<base64>` signs with the decoded bytes, as Standard
 * Webhooks libraries expect; any other secret signs with its UTF-8 bytes.
 */
import { createHmac } from 'node:crypto';

export function signingKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    if (key.length > 0) return key;
  }
  return Buffer.from(secret, 'utf8');
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt. */
export function signatureHeaders(secret: string, id: string, body: string, now = Date.now()) {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}
