/**
 * A LIKE pattern matching a text that contains `text`, whose `%`, `_` and `\` are taken
 * literally (PostgreSQL's default escape character is the backslash). The one place a
 * search text becomes a pattern.
 */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
