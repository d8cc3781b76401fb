import { expressionBuilder, type QueryCreator } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The parts of the tools module's tables that other modules' queries may compose, so a query that
 * needs the catalog stays one statement (the agents list, docs/architecture.md) while the SQL on
 * these tables stays here. Nothing else of `services` or `actions` is read outside this module.
 */

/**
 * Every action with its service, as a derived table to join by `action_id`: what an agent's
 * attached tools show. It carries no visibility rule; the caller joins it to rows the user owns.
 */
export const actionsWithService = () =>
  expressionBuilder<Database, never>()
    .selectFrom('actions')
    .innerJoin('services', 'services.id', 'actions.service_id')
    .select([
      'actions.id as action_id',
      'actions.name as action_name',
      'actions.display_name',
      'actions.description',
      'actions.input_schema',
      'actions.effect',
      'services.id as service_id',
      'services.name as service_name',
      'services.logo as service_logo',
      'services.provider',
      'services.provider_key',
      'services.owner_user_id',
      'services.enabled as service_enabled',
    ]);

/** The ids of a provider's services, as a subquery, so they never travel to JS and back. */
export const providerServiceIds = (k: QueryCreator<Database>, provider: string) =>
  k.selectFrom('services').select('id').where('provider', '=', provider);
