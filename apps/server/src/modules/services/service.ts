import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import type { Vault } from '../../security/vault.ts';
import { createCredentialSeal, createToolCatalog, type ToolsService } from '../tools/index.ts';
import { createCatalog } from './catalog.ts';
import { createConnectionRepository } from './connection-repository.ts';
import { createConnections } from './connections.ts';
import { createCustomMcp } from './custom-mcp.ts';
import { createOAuthFlow } from './oauth-flow.ts';

/**
 * The services of spec section 7: what the caller can connect to and their connections. Every
 * call takes the caller's user id and reads only what that user may see (catalog services plus
 * their own, their own connections), so another user's service answers 404 like an unknown one.
 */
export function createServicesService(deps: {
  config: Config;
  db: Db;
  vault: Vault;
  audit: AuditLog;
  tools: Pick<ToolsService, 'providers' | 'liveActions'>;
}) {
  const { config, db, audit, tools } = deps;
  const repo = createConnectionRepository(db);
  const toolCatalog = createToolCatalog(db);
  const credentials = createCredentialSeal(deps.vault);
  const providers = tools.providers;
  const catalog = createCatalog({ repo, toolCatalog, tools });
  const oauth = createOAuthFlow({ config, repo, toolCatalog, providers, credentials, audit });
  const connections = createConnections({ repo, toolCatalog, providers, credentials, audit, catalog, oauth });
  return {
    listServicesForUser: catalog.listServicesForUser,
    listActiveServices: catalog.listActiveServices,
    listActions: catalog.listActions,
    ...connections,
    finishOAuthCallback: oauth.finish,
    addCustomMcpServer: createCustomMcp({ config, repo, toolCatalog, credentials, audit }),
  };
}

export type ServicesService = ReturnType<typeof createServicesService>;
