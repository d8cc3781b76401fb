/**
 * A LIKE pattern matching any value that contains `text`, with LIKE's `%` and `_` and the backslash
 * taken literally: use it with `escape '\'`.
 */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
