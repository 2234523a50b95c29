/** A stored timestamp as the API answers it: RFC 3339 in UTC with a `Z`, no fraction (gaps.md). */
export const rfc3339 = (d: Date | string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
