import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * A migration as a function of the dialect, for the few column types that differ (auto-increment
 * ids); everything else is written once for both databases.
 */
export type VersionedMigration = (dialect: Dialect) => Migration;
