import type { CustomMcpServerBody, Service } from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../kernel.ts';
import { ValidationFailure } from '../../http/errors.ts';
import type { RecordAnswer } from '../../http/idempotency.ts';
import {
  checkUrl,
  EgressError,
  KeyCheckError,
  probeHttpServer,
  redactSecrets,
  ToolError,
  USER_SERVER_PREFIX,
  type ActionDefinition,
  type CredentialSeal,
  type ToolCatalog,
} from '../tools/index.ts';
import type { ConnectionRepository } from './connection-repository.ts';

const urlRefused = (msg: string) =>
  new ValidationFailure([{ loc: ['body', 'url'], msg, type: 'value_error' }]);

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'server';

/**
 * A user's own remote MCP server (Streamable HTTP), visible only to them. The body arrives checked
 * by the contract's strict schema, which refuses by name anything that could start a process
 * (F2); here the URL goes through the egress guard and the server is probed for its tools before
 * anything is stored. Nothing is expanded against the environment (G4).
 */
export function createCustomMcp(deps: {
  config: Config;
  repo: ConnectionRepository;
  toolCatalog: ToolCatalog;
  credentials: CredentialSeal;
  audit: AuditLog;
}) {
  const { config, repo, toolCatalog, credentials, audit } = deps;

  return async function addCustomMcpServer(
    userId: number,
    body: CustomMcpServerBody,
    /** Stores the answer for an Idempotency-Key, in the same transaction as the service. */
    recordAnswer?: RecordAnswer<Service>,
  ): Promise<Service> {
    const { name, url } = body;
    try {
      checkUrl(url, { allowPrivate: config.tools.egressAllowPrivate });
    } catch (err) {
      throw urlRefused(err instanceof EgressError ? err.message : 'The URL is not allowed');
    }
    const headers: Record<string, string> = {};
    if (body.bearer_token) headers.authorization = `Bearer ${body.bearer_token}`;
    if (body.header_name && body.header_value) headers[body.header_name.toLowerCase()] = body.header_value;

    let actions: ActionDefinition[];
    try {
      actions = await probeHttpServer(config, { kind: 'http', url, headers });
    } catch (err) {
      // Refused credentials are the field that held them (the URL when none were given).
      if (err instanceof KeyCheckError && err.refused) {
        const field = body.header_value ? 'header_value' : body.bearer_token ? 'bearer_token' : 'url';
        throw new ValidationFailure([{ loc: ['body', field], msg: err.message, type: 'key_refused' }]);
      }
      // A limit it passed (R11) is said as it is; anything else is a failure to connect.
      if (err instanceof ToolError) throw urlRefused(redactSecrets(err.message, headers));
      const reason = err instanceof EgressError ? err.message : 'it did not answer as an MCP server';
      throw urlRefused(`Could not connect to the MCP server: ${redactSecrets(reason, headers)}`);
    }
    const description = body.description || `Your MCP server at ${new URL(url).host}`;
    const answerFor = (id: number): Service => ({
      id,
      name,
      description,
      logo: null,
      status: 'ACTIVE',
      auth_schemes: ['NO_AUTH'],
      last_used_at: null,
      last_error: null,
    });
    const id = await repo.transaction(async (tx, trx) => {
      const { serviceId } = await toolCatalog.provisionPrivateService(
        'mcp',
        userId,
        {
          key: `${USER_SERVER_PREFIX}${slugOf(name)}`,
          name,
          description,
          logo: null,
          authScheme: 'NO_AUTH',
          metadata: { url, custom: true },
        },
        actions,
        trx,
      );
      await tx.saveConnection(userId, serviceId, {
        status: 'ACTIVE',
        external_id: null,
        credentials: credentials.seal(Object.keys(headers).length ? { headers } : null),
      });
      await audit.record(
        {
          userId,
          action: 'connection.create',
          objectType: 'service',
          objectId: serviceId,
          detail: { custom: true, status: 'ACTIVE' },
        },
        trx,
      );
      await recordAnswer?.(trx, answerFor(serviceId));
      return serviceId;
    });
    return answerFor(id);
  };
}
