/**
 * A LIKE pattern matching a text that contains `text`, whose `%`, `_` and `\` are taken
 * literally (PostgreSQL's default escape character is the backslash). The one place a
 * search text becomes a pattern.
 */
export const likePattern = (text: string) => `%${literal(text)}%`;

/** A LIKE pattern matching a text that starts with `text` (taken literally, as above). */
export const likePrefix = (text: string) => `${literal(text)}%`;

const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
