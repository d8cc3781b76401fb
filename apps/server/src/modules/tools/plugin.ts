import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';
import type { ToolProvider } from './provider.ts';
import { createBuiltinProvider } from './providers/builtin/index.ts';
import { createToolsService, type ToolsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tools service (services routes, chat runtime). */
    tools: ToolsService;
  }
}

/** Builds the enabled providers and the tools service, and syncs the catalog when the app is ready. */
export function createProviders(deps: AppDeps): ToolProvider[] {
  return [createBuiltinProvider(deps)];
}

export async function registerTools(app: FastifyInstance, deps: AppDeps, providers = createProviders(deps)) {
  const tools = createToolsService({ ...deps, providers });
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
