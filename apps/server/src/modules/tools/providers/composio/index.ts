import type { Config } from '../../../../config.ts';
import {
  toToolResult,
  ToolError,
  type ActionDefinition,
  type ActionEffect,
  type Credentials,
  type ServiceDefinition,
  type ToolProvider,
} from '../../provider.ts';
import { createComposioClient } from './client.ts';

/**
 * Composio as a tool provider: toolkits are services, their tools are actions, and a connection
 * is a Composio connected account of the user (`cadre-user-<id>`). Calls go through the REST
 * client in `client.ts`; the webhook it sends is handled in `webhook.ts`.
 */

export const composioUserId = (userId: number) => `cadre-user-${userId}`;

interface Toolkit {
  slug: string;
  name: string;
  meta?: { description?: string; logo?: string; categories?: { name?: string }[] };
  auth_schemes?: string[];
  composio_managed_auth_schemes?: string[];
  no_auth?: boolean;
  is_deprecated?: boolean;
}

interface Tool {
  slug: string;
  name: string;
  description?: string;
  human_description?: string;
  input_parameters?: Record<string, unknown>;
  tags?: string[];
  version?: string;
  is_deprecated?: boolean;
}

interface ConnectedAccount {
  id: string;
  user_id?: string;
  status?: string;
  toolkit?: { slug?: string };
}

export function effectFromTags(slug: string, tags: string[] = []): ActionEffect {
  if (tags.includes('readOnlyHint') && !tags.includes('destructiveHint')) return 'read';
  if (/(^|_)(SEND|REPLY|FORWARD|POST_MESSAGE|PUBLISH)(_|$)/.test(slug)) return 'send';
  return 'write';
}

function schemeOf(toolkit: Toolkit): string {
  if (toolkit.no_auth) return 'NO_AUTH';
  const schemes = toolkit.auth_schemes ?? [];
  if (schemes.includes('OAUTH2')) return 'OAUTH2';
  return schemes[0] ?? 'OAUTH2';
}

export function createComposioProvider(config: Config): ToolProvider {
  const settings = config.tools.composio;
  if (!settings) throw new Error('Composio is not configured');
  const composio = createComposioClient(settings, config);

  const accountIdOf = (credentials: Credentials | null, externalId?: string | null) => {
    const id = credentials?.connected_account_id ?? externalId;
    return typeof id === 'string' && id ? id : undefined;
  };

  return {
    id: 'composio',
    // Its API host, and Composio's own domain where its hosted connect pages live.
    redirectHosts: [new URL(settings.baseUrl).hostname, 'composio.dev'],
    lazyActions: true,
    async listServices(): Promise<ServiceDefinition[]> {
      const toolkits = await composio.listAll<Toolkit>('/toolkits', { sort_by: 'usage' });
      return toolkits
        .filter((t) => !t.is_deprecated && t.slug)
        .map((t) => ({
          key: t.slug,
          name: t.name,
          description: t.meta?.description ?? '',
          logo: t.meta?.logo ?? null,
          authScheme: schemeOf(t),
          metadata: {
            auth_schemes: t.auth_schemes ?? [],
            composio_managed: t.composio_managed_auth_schemes ?? [],
          },
        }));
    },
    async listActions(service): Promise<ActionDefinition[]> {
      const tools = await composio.listAll<Tool>('/tools', { toolkit_slug: service.key });
      return tools
        .filter((t) => !t.is_deprecated && t.slug)
        .map((t) => ({
          name: t.slug,
          displayName: t.name,
          description: t.description ?? t.human_description ?? '',
          inputSchema: t.input_parameters ?? { type: 'object', properties: {} },
          effect: effectFromTags(t.slug, t.tags),
          version: t.version ?? null,
        }));
    },
    async connect(ctx, service, input) {
      if (input.kind === 'no_auth') return { status: 'ACTIVE' };
      if (input.kind === 'api_key') {
        const authConfigId = await composio.authConfigFor(service.key, 'API_KEY');
        const account = await composio.request<{ id: string }>('POST', '/connected_accounts', {
          body: {
            auth_config: { id: authConfigId },
            connection: {
              user_id: composioUserId(ctx.userId),
              state: { authScheme: 'API_KEY', val: { status: 'ACTIVE', api_key: input.apiKey } },
            },
          },
        });
        return {
          status: 'ACTIVE',
          externalId: account.id,
          credentials: { connected_account_id: account.id },
        };
      }
      const authConfigId = await composio.authConfigFor(service.key, service.authScheme);
      const link = await composio.request<{ redirect_url: string; connected_account_id: string }>(
        'POST',
        '/connected_accounts/link',
        {
          body: {
            auth_config_id: authConfigId,
            user_id: composioUserId(ctx.userId),
            callback_url: input.callbackUrl,
          },
        },
      );
      return {
        status: 'INITIATED',
        redirectUrl: link.redirect_url,
        externalId: link.connected_account_id,
      };
    },
    async finishOAuth(ctx, service, input) {
      // The account we created the link for is authoritative; the query's id is only a hint.
      const expected = input.hints.expected_external_id;
      const hinted = input.hints.connected_account_id ?? input.hints.connectedAccountId;
      const id = expected ?? hinted;
      if (!id || (expected && hinted && hinted !== expected)) {
        throw new ToolError('invalid_input', 'The connected account does not match this connection request');
      }
      const account = await composio.request<ConnectedAccount>(
        'GET',
        `/connected_accounts/${encodeURIComponent(id)}`,
      );
      if (account.user_id !== composioUserId(ctx.userId)) {
        throw new ToolError('invalid_input', 'The connected account belongs to someone else');
      }
      if (account.toolkit?.slug && account.toolkit.slug !== service.key) {
        throw new ToolError('invalid_input', 'The connected account is for another service');
      }
      if (account.status !== 'ACTIVE') {
        throw new ToolError(
          'auth_expired',
          `The connection is ${account.status ?? 'not active'}; try connecting again`,
        );
      }
      return { credentials: { connected_account_id: account.id }, externalId: account.id };
    },
    async disconnect(_ctx, _service, credentials, externalId) {
      const id = accountIdOf(credentials, externalId);
      if (!id) return;
      try {
        await composio.request('DELETE', `/connected_accounts/${encodeURIComponent(id)}`);
      } catch (err) {
        if (!(err instanceof ToolError && err.code === 'not_found')) throw err;
      }
    },
    async execute(ctx, service, action, args, credentials) {
      try {
        if (!action.version || action.version === 'latest') {
          throw new ToolError('provider_error', 'This tool has no pinned version; sync the catalog again');
        }
        const accountId = accountIdOf(credentials);
        const result = await composio.request<{
          data?: unknown;
          error?: string | null;
          successful?: boolean;
          log_id?: string;
        }>('POST', `/tools/execute/${encodeURIComponent(action.name)}`, {
          body: {
            arguments: args ?? {},
            user_id: composioUserId(ctx.userId),
            ...(accountId ? { connected_account_id: accountId } : {}),
            version: action.version,
          },
        });
        if (!result.successful) {
          const message =
            typeof result.error === 'string' && result.error ? result.error.slice(0, 500) : 'the tool failed';
          return {
            ok: false,
            code: 'provider_error',
            error: `${service.key}: ${message}${result.log_id ? ` (log ${result.log_id})` : ''}`,
          };
        }
        return { ok: true, data: result.data ?? null };
      } catch (err) {
        return toToolResult(err);
      }
    },
  };
}
