/**
 * One format for a record's timestamp (`lastUpdate`) everywhere: the service answers
 * `YYYY-MM-DD HH:MM:SS UTC` (referentials) or RFC 3339 with `Z` (catalog); the console
 * shows both as a medium date and a short time in UTC, followed by "UTC".
 */
export function formatTimestamp(v: unknown, lang: string): string | null {
  if (typeof v !== 'string' || !v) return null;
  const iso = v.trim().replace(/ UTC$/, 'Z').replace(' ', 'T');
  const d = new Date(/[zZ]|[+-]\d{2}:\d{2}$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(d.getTime())) return v;
  return `${new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d)} UTC`;
}
