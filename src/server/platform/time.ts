/** A stored timestamp as the API answers it: RFC 3339 in UTC with a `Z`, no fraction (gaps.md). */
export const rfc3339 = (d: Date | string) => {
  const iso = (d instanceof Date ? d : new Date(d)).toISOString();
  // `YYYY-MM-DDTHH:MM:SS.mmmZ`; a year beyond 9999 (`+010000-...`) takes the general path.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
};
