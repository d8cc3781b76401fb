import { expressionBuilder, sql, type Expression } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The part of the connections table that another module's query may compose (the agents list
 * says which attached tools need reconnecting, in its one statement; docs/architecture.md).
 */

/** The user's active connection to the service, as a subquery for `exists`. */
export const activeConnection = (userId: Expression<number>, serviceId: Expression<number>) =>
  expressionBuilder<Database, never>()
    .selectFrom('connections')
    .select('connections.id')
    .where('connections.user_id', '=', userId)
    .where('connections.service_id', '=', serviceId)
    .where('connections.status', '=', sql.lit('ACTIVE'));
