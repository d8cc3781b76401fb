import type { FastifyInstance } from 'fastify';
import type { ToolProvider } from './provider.ts';
import { createBuiltinProvider } from './providers/builtin/index.ts';
import { createComposioProvider } from './providers/composio/index.ts';
import { createMcpProvider } from './providers/mcp/index.ts';
import { createToolsService, type ToolsDeps, type ToolsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tools layer: runs actions (chat runtime), syncs the catalog, takes Composio's webhook. */
    tools: ToolsService;
  }
}

/** The providers this server enables: built-in always, Composio when configured, MCP servers. */
export function createProviders(deps: Pick<ToolsDeps, 'config' | 'db'>): ToolProvider[] {
  const providers: ToolProvider[] = [createBuiltinProvider(deps)];
  if (deps.config.tools.composio) providers.push(createComposioProvider(deps.config));
  providers.push(createMcpProvider(deps.config));
  return providers;
}

/** Builds the providers and the tools service, and syncs the catalog when the app is ready. */
export async function registerTools(
  app: FastifyInstance,
  deps: Pick<ToolsDeps, 'config' | 'db' | 'vault' | 'telemetry'>,
  options: Pick<ToolsDeps, 'connections' | 'onTrigger'>,
) {
  const providers = createProviders(deps);
  const tools = createToolsService({ ...deps, ...options, providers });
  app.decorate('tools', tools);
  app.addHook('onReady', async () => {
    const results = await tools.syncCatalog(app.log);
    app.log.info({ catalog: results }, 'tool catalog synced');
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled(providers.map((p) => p.close?.()));
  });
  return tools;
}
