/**
 * The pure logic of the Webhooks pages: the rules the creation form checks as the user
 * types (the same as the service's: src/server/domains/webhooks/service.ts and
 * src/server/events/addresses.ts), the form -> request body mapping, service error codes
 * -> form fields, the secret generator, the limit of 3, and the formats of the delivery
 * log. No React here (model.test.ts).
 */
import { hostKind } from '../../../contract/addresses.ts';
import {
  CALLBACK_URL_MAX,
  EVENT_TYPES,
  type EventType,
  HEADER_NAME,
  HEADER_VALUE,
  RESERVED_HEADERS,
  SECRET_LENGTH,
  SUBSCRIPTION_LIMIT,
  type SubscriptionBody,
  WebhooksCodes,
} from '../../../contract/webhooks.ts';

export { EVENT_TYPES, type EventType, SUBSCRIPTION_LIMIT };

/* ---------------- the limit of 3 ---------------- */

export interface LimitState {
  used: number;
  limit: number;
  remaining: number;
  /** No subscription can be created until one is deleted. */
  reached: boolean;
}

export function limitState(used: number): LimitState {
  const remaining = Math.max(0, SUBSCRIPTION_LIMIT - used);
  return { used, limit: SUBSCRIPTION_LIMIT, remaining, reached: remaining === 0 };
}

/* ---------------- callback URL ---------------- */

/** Why the service would refuse the URL whatever the instance's settings (an error of the field). */
export type UrlProblem = 'required' | 'tooLong' | 'notUrl' | 'scheme' | 'credentials' | 'httpPublic';
/**
 * What the service accepts only when the operator allows private addresses
 * (FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1), which the console cannot know: a note, not an error.
 */
export type UrlNote = 'privateNeedsSetting' | 'httpNeedsSetting';

export interface UrlCheck {
  problem?: UrlProblem;
  note?: UrlNote;
}

/** The host's kind, by the service's own rule (src/contract/addresses.ts). */
export { hostKind };

/** The check of a callback URL as typed: what the service refuses, and what depends on its settings. */
export function checkCallbackUrl(text: string): UrlCheck {
  const value = text.trim();
  if (value === '') return { problem: 'required' };
  if (value.length > CALLBACK_URL_MAX) return { problem: 'tooLong' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: /^[a-z][a-z0-9+.-]*:/i.test(value) ? 'notUrl' : 'scheme' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'scheme' };
  if (!url.hostname) return { problem: 'notUrl' };
  if (url.username || url.password) return { problem: 'credentials' };
  const kind = hostKind(url.hostname);
  if (url.protocol === 'http:')
    return kind === 'public' ? { problem: 'httpPublic' } : { note: 'httpNeedsSetting' };
  return kind === 'private' ? { note: 'privateNeedsSetting' } : {};
}

/* ---------------- secret ---------------- */

export type SecretProblem = 'tooShort' | 'tooLong' | 'characters';

/** Empty is fine (no secret: no x-service-secret header, no signature). */
export function checkSecret(secret: string): SecretProblem | undefined {
  if (secret === '') return undefined;
  if (!/^[\x21-\x7e]*$/.test(secret)) return 'characters';
  if (secret.length < SECRET_LENGTH.min) return 'tooShort';
  if (secret.length > SECRET_LENGTH.max) return 'tooLong';
  return undefined;
}

/**
 * A strong random secret: 32 bytes from the browser's CSPRNG in the Standard Webhooks form
 * `whsec_<base64>` (the service signs with the decoded bytes, so Standard Webhooks libraries
 * verify the signature with the secret as it is).
 */
export function generateSecret(
  random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b),
): string {
  const bytes = random(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `whsec_${btoa(binary)}`;
}

/* ---------------- custom headers ---------------- */

export interface HeaderRow {
  name: string;
  value: string;
}

export type HeaderProblem =
  | 'nameRequired'
  | 'nameInvalid'
  | 'nameDuplicate'
  | 'nameReserved'
  | 'valueInvalid';

const RESERVED = new Set<string>(RESERVED_HEADERS);

/** A row left empty is not sent (the editor's "add" makes one). */
export const isBlankRow = (row: HeaderRow) => row.name.trim() === '' && row.value === '';

/**
 * The problems of each row, as the service sees them: a name that is an RFC 9110 token,
 * unique without regard to case (the second one is refused), not one the service or the
 * connection sets; a value of text without line breaks or control characters.
 */
export function headerProblems(
  rows: readonly HeaderRow[],
): { name?: HeaderProblem; value?: HeaderProblem }[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    if (isBlankRow(row)) return {};
    const out: { name?: HeaderProblem; value?: HeaderProblem } = {};
    const name = row.name.trim();
    const lower = name.toLowerCase();
    if (name === '') out.name = 'nameRequired';
    else if (!HEADER_NAME.test(name)) out.name = 'nameInvalid';
    else if (seen.has(lower)) out.name = 'nameDuplicate';
    else if (RESERVED.has(lower)) out.name = 'nameReserved';
    if (name !== '') seen.add(lower);
    if (!HEADER_VALUE.test(row.value)) out.value = 'valueInvalid';
    return out;
  });
}

/* ---------------- the form and the request body ---------------- */

export interface SubscriptionForm {
  eventTypes: EventType[];
  callbackUrl: string;
  secret: string;
  headers: HeaderRow[];
}

export const emptyForm = (): SubscriptionForm => ({
  eventTypes: [],
  callbackUrl: '',
  secret: '',
  headers: [],
});

/**
 * The POST body of a form: event types in the spec's order, the URL trimmed, no `secret`
 * when empty, the custom headers as `{name: value}` (names trimmed, blank rows dropped,
 * no `headers` when there are none).
 */
export function toSubscriptionBody(form: SubscriptionForm): SubscriptionBody {
  const eventTypes = EVENT_TYPES.filter((t) => form.eventTypes.includes(t));
  const rows = form.headers.filter((r) => !isBlankRow(r));
  const body: SubscriptionBody = { eventTypes, callbackUrl: form.callbackUrl.trim() };
  if (form.secret !== '') body.secret = form.secret;
  if (rows.length > 0) body.headers = Object.fromEntries(rows.map((r) => [r.name.trim(), r.value]));
  return body;
}

/**
 * The form field (or fields) a service refusal belongs to, null for the form's alert. The
 * header refusals name their headers in quotes (`"x-service-event" is set by the service`):
 * they go to those rows.
 */
export function fieldForServiceError(
  error: { code: string; message?: string },
  rows: readonly HeaderRow[],
): string | string[] | null {
  const C = WebhooksCodes;
  switch (error.code) {
    case C.eventTypesMandatory:
    case C.eventTypesInvalid:
    case C.eventTypeUnknown:
      return 'eventTypes';
    case C.callbackUrlMandatory:
    case C.callbackUrlInvalid:
    case C.callbackUrlHttps:
    case C.callbackUrlPrivate:
      return 'callbackUrl';
    case C.secretInvalid:
      return 'secret';
    case C.headersInvalid:
      return 'headers';
    case C.headerNameInvalid:
    case C.headerNameReserved:
    case C.headerValueInvalid: {
      const part = error.code === C.headerValueInvalid ? 'value' : 'name';
      const named = [...(error.message ?? '').matchAll(/"([^"]*)"/g)].map((m) => m[1]);
      const indexes = rows
        .map((r, i) => ({ name: r.name.trim(), i }))
        .filter((r) => named.some((n) => n === r.name || n.toLowerCase() === r.name.toLowerCase()))
        .map((r) => r.i);
      if (indexes.length === 0) return 'headers';
      return indexes.length === 1
        ? `headers.${indexes[0]}.${part}`
        : indexes.map((i) => `headers.${i}.${part}`);
    }
    default:
      return null;
  }
}

/* ---------------- the delivery log ---------------- */

/** A date-time of the log, to the second, in UTC (as every timestamp of the console). */
export function formatDateTime(iso: string | null | undefined, lang: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'UTC',
  }).format(d);
  return `${text} UTC`;
}

/** "in 4 seconds", "2 minutes ago": how far a moment is from now. */
export function relativeTime(iso: string, now: number, lang: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

/** The last answer of a delivery: its HTTP status, or the error when none came. */
export function lastAnswer(d: {
  lastStatusCode: number | null;
  lastError: string | null;
  attempts: number;
}): { kind: 'none' } | { kind: 'status'; code: number; ok: boolean } | { kind: 'error'; error: string } {
  if (d.attempts === 0) return { kind: 'none' };
  if (d.lastStatusCode !== null)
    return { kind: 'status', code: d.lastStatusCode, ok: d.lastStatusCode >= 200 && d.lastStatusCode < 300 };
  return { kind: 'error', error: d.lastError ?? '' };
}

/** The custom headers shown on the subscription page, values hidden unless asked (they may be credentials). */
export function maskValue(value: string): string {
  return value === '' ? '' : '•'.repeat(Math.min(12, Math.max(6, value.length)));
}
