import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ToolProvider } from './provider.ts';
import { createBuiltinProvider } from './providers/builtin/index.ts';
import { createComposioProvider } from './providers/composio/index.ts';
import { createMcpProvider } from './providers/mcp/index.ts';
import { createToolsService, type ToolsDeps, type ToolsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tools service (services routes, chat runtime). */
    tools: ToolsService;
  }
}

/** Builds the enabled providers and the tools service, and syncs the catalog when the app is ready. */
export function createProviders(deps: AppDeps): ToolProvider[] {
  const providers: ToolProvider[] = [createBuiltinProvider(deps)];
  if (deps.config.tools.composio) providers.push(createComposioProvider(deps.config));
  providers.push(createMcpProvider(deps.config));
  return providers;
}

export async function registerTools(
  app: FastifyInstance,
  deps: AppDeps,
  options: { onTrigger?: ToolsDeps['onTrigger'] } = {},
) {
  const providers = createProviders(deps);
  const tools = createToolsService({ ...deps, providers, onTrigger: options.onTrigger });
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
