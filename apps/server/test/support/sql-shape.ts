/**
 * A statement's shape: its SQL with each run of placeholders folded into one, so `in (?, ?)` and
 * `in (?, ?, ?)`, or an insert of two rows and of three, count as the same statement.
 */
export function statementShape(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\?(?:\s*,\s*\?)+/g, '?…')
    .replace(/\(\?…\)(?:\s*,\s*\(\?…\))+/g, '(?…)…')
    .replace(/\(\?\)(?:\s*,\s*\(\?\))+/g, '(?)…');
}
