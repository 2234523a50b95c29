/** The translated explanation of a webhooks service code, the service's own message by default. */
import type { TFunction } from 'i18next';

export function serviceErrorText(t: TFunction, err: { code: string; message: string }): string {
  return t(`webhooks:serverErrors.${err.code.replace(/\./g, '_')}`, { defaultValue: err.message });
}

/** The i18n key of an event type's description (`asset.upsert` -> `webhooks:events.asset_upsert`). */
export const eventKey = (eventType: string) => `webhooks:events.${eventType.replace(/\./g, '_')}`;
