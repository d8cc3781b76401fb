/**
 * The words of a question that are worth searching for: lower-case letters and digits of any
 * script, without the words every question has ("what", "the") or that only say where to look
 * ("documents", "files"). Only letters and digits survive, so the terms are safe to quote into an
 * FTS5 query or join into a tsquery.
 */
const IGNORED = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in into ' +
    'is it its me my of on or our say says said should so than that the their them then there these they ' +
    'this those to tell up us was we were what when where which who whom why will with would you your ' +
    'about according according document documents file files doc docs knowledge attached uploaded ' +
    'please any anything something mention mentions mentioned written write wrote there'
  ).split(' '),
);

export const MAX_TERMS = 16;

export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = [...new Set(words.filter((w) => !IGNORED.has(w) && (w.length > 1 || /\d/.test(w))))];
  return terms.slice(0, MAX_TERMS);
}
