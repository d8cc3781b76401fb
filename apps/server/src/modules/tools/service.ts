import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Telemetry } from '../../kernel.ts';
import type { Vault } from '../../security/vault.ts';
import type { ConnectionStore } from './connection-port.ts';
import { createCredentialSeal } from './credentials.ts';
import { createActionRunner } from './execute.ts';
import type { ToolProvider, ToolResult } from './provider.ts';
import { providerSet, type ProviderSet } from './provider-set.ts';
import {
  createComposioWebhookHandler,
  type TriggerDelivery,
  type WebhookOutcome,
} from './providers/composio/webhook.ts';
import { liveActions, syncCatalog } from './registry.ts';
import { createToolsRepository, type ServiceRow } from './repository.ts';

export interface ToolsDeps {
  config: Config;
  db: Db;
  vault: Vault;
  providers: ToolProvider[];
  /** The users' connections (the services module owns them). */
  connections: ConnectionStore;
  /** Hands provider trigger events to the trigger store (the triggers module sets this). */
  onTrigger?: (event: TriggerDelivery) => Promise<void>;
  /** Spans and metrics of tool calls. */
  telemetry?: Telemetry;
}

/**
 * The tools layer as the rest of the server uses it: the enabled providers, the catalog sync,
 * running an action for a user, and Composio's webhook. Connecting users to services is the
 * services module's job.
 */
export interface ToolsService {
  readonly providers: ProviderSet;
  /** Copies every provider's catalog into the database (start-up; safe to run concurrently). */
  syncCatalog(log?: FastifyBaseLogger): Promise<Record<string, number | 'failed'>>;
  /** A service's live actions, listed again from a lazily synced provider when they are an hour old. */
  liveActions(service: ServiceRow): ReturnType<typeof liveActions>;
  /**
   * Runs an action for a user with their own connection; the chat runtime calls this. The
   * idempotency key (an unattended write's) goes to providers that accept one.
   */
  executeAction(
    userId: number,
    actionId: number,
    args: unknown,
    options?: { idempotencyKey?: string },
  ): Promise<ToolResult>;
  handleComposioWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookOutcome>;
}

export function createToolsService(deps: ToolsDeps): ToolsService {
  const repo = createToolsRepository(deps.db);
  const providers = providerSet(deps.providers);
  return {
    providers,
    syncCatalog: (log) => syncCatalog(deps.db, deps.providers, log),
    liveActions: (service) => liveActions(deps.db, providers.get(service.provider), service),
    executeAction: createActionRunner({
      repo,
      connections: deps.connections,
      providers,
      credentials: createCredentialSeal(deps.vault),
      telemetry: deps.telemetry,
    }),
    handleComposioWebhook: createComposioWebhookHandler({
      secret: deps.config.tools.composioWebhookSecret,
      repo,
      connections: deps.connections,
      onTrigger: deps.onTrigger,
    }),
  };
}
