/** What one callback attempt sends (spec: Callback payload; Authentication 5; Delivery rules 5). */
import { rfc3339 } from '../platform/time.ts';
import { signatureHeaders } from './signature.ts';

export const USER_AGENT = 'Fieldwork-Webhooks/1';

export interface CallbackSource {
  id: string;
  created_at: Date;
  event_type: string;
  subscription_id: string;
  data: Record<string, unknown>;
  /** The change log entry reported (migration 102); null for a test event. */
  change_id?: string | null;
}

/** The body POSTed for a callback: the same on every attempt. */
export function callbackBody(d: CallbackSource) {
  return {
    version: '1' as const,
    id: d.id,
    creationTime: rfc3339(d.created_at),
    eventType: d.event_type,
    subscriptionId: d.subscription_id,
    // The change log's entry of this change (docs/api/changes.md): absent for a test event.
    ...(d.change_id ? { changeId: String(d.change_id) } : {}),
    data: d.data,
  };
}

/**
 * The headers of one attempt: the subscription's custom headers (none of them may use a
 * name set here), `x-service-event`, and with a secret `x-service-secret` and the Standard
 * Webhooks signature. Without a secret, `x-service-secret` is left out (the spec's null).
 */
export function callbackHeaders(
  d: { event_type: string; id: string; secret: string | null; headers: Record<string, string> },
  body: string,
  now = Date.now(),
): Record<string, string> {
  return {
    ...d.headers,
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event': d.event_type,
    ...(d.secret === null
      ? {}
      : { 'x-service-secret': d.secret, ...signatureHeaders(d.secret, d.id, body, now) }),
  };
}
