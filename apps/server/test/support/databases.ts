/**
 * The integration files (`test/*.int.test.ts`) that run on SQLite only. Every other one runs on
 * SQLite and on PostgreSQL, so a new file runs on both unless it is listed here.
 *
 * A file belongs here when nothing it proves can differ between the two databases: its SQL is
 * also run on PostgreSQL by the files that run on both, and it tests no transaction, lock, signal
 * (LISTEN/NOTIFY), outage, driver error, search ranking or value the two store differently. So
 * the files about runs and Stop, idempotency, rate limits, outages, knowledge search and the
 * route sweeps run on both. The first half is checked: at the end of a full run of the server-sqlite project,
 * `sql-coverage-check.ts` fails if a file listed here ran a statement that no file running on
 * PostgreSQL ran.
 */
export const SQLITE_ONLY: string[] = [
  'test/auth.int.test.ts',
  'test/beta-gate.int.test.ts',
  'test/chat-disabled-auth.int.test.ts',
  'test/chat-host-functions.int.test.ts',
  'test/chat-tabs.int.test.ts',
  'test/chat-time-zone.int.test.ts',
  'test/compression.int.test.ts',
  'test/identity.int.test.ts',
  'test/llm-failures.int.test.ts',
  'test/log-redaction.int.test.ts',
  'test/request-limits.int.test.ts',
  'test/tools-mcp-stdio.int.test.ts',
  'test/two-user.int.test.ts',
];
