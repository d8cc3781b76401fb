/**
 * The tools module's public face: providers, the egress guard, the tool catalog and running
 * actions. Other modules import the tools layer only from here, and reach its tables (services,
 * actions, webhook deliveries, the built-in services' data) only through the catalog port and the
 * query parts of `shared-sql.ts`, never its repository.
 */
export { registerTools, createProviders } from './plugin.ts';
export { createToolsService, type ToolsDeps, type ToolsService } from './service.ts';
export type { ProviderSet } from './provider-set.ts';
export {
  codeForStatus,
  toToolResult,
  KeyCheckError,
  ToolError,
  type ActionDefinition,
  type ActionEffect,
  type AuthScheme,
  type ConnectResult,
  type Credentials,
  type ProviderId,
  type ServiceDefinition,
  type ServiceRef,
  type ToolErrorCode,
  type ToolProvider,
  type ToolResult,
} from './provider.ts';
export { serviceRef, syncCatalog, syncProvider } from './registry.ts';
export type { ActionKey, ServiceRow } from './repository.ts';
export { createToolCatalog, type ToolCatalog } from './catalog.ts';
export { actionsWithService, providerServiceIds } from './shared-sql.ts';
export type { ConnectionOwner, ConnectionStore } from './connection-port.ts';
export { createCredentialSeal, type CredentialSeal } from './credentials.ts';
export { redactSecrets } from './execute.ts';
export { checkUrl, EgressError } from './egress.ts';
export { hashState, newPkce, newState, OAUTH_STATE_TTL_MS } from './oauth2.ts';
export { probeHttpServer, USER_SERVER_PREFIX } from './providers/mcp/index.ts';
export { type TriggerDelivery, type WebhookOutcome } from './providers/composio/webhook.ts';
export {
  defineAction,
  inputJsonSchema,
  initialsLogo,
  logoFile,
  type BuiltinAction,
  type BuiltinContext,
  type BuiltinService,
} from './providers/builtin/define.ts';
export { toolsUserData } from './user-data.ts';
