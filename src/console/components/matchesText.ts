/** Case- and accent-insensitive: every word of `q` is in one of the fields. */
export function matchesText(q: string, ...fields: (string | null | undefined)[]): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const hay = fold(fields.filter(Boolean).join(' '));
  return fold(q)
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}
