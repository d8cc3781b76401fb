import type { FastifyPluginAsync } from 'fastify';
import { MCP_PATH, OPENAI_API_PATH } from '@cadre/contract';
import {
  APPROVAL_TTL_MS,
  chatDepsFrom,
  createChatService,
  type ModelSelection,
  type ToolExecutor,
} from '../chat/index.ts';
import { checkApiOrigin, registerApiPreflight } from './api-cors.ts';
import { mcpRoutes } from './mcp-routes.ts';
import type { AgentApiDeps } from './ports.ts';
import { openAiRoutes } from './openai-routes.ts';

export interface AgentApiPluginOptions {
  deps: AgentApiDeps;
  executor: ToolExecutor;
  /** Overrides the model chosen from configuration (tests). */
  modelSelection?: ModelSelection;
}

/**
 * The agents reached from code (issue 18): the OpenAI-compatible API at `/openai/v1` and an MCP
 * server per agent at `/mcp/{agent_id}`, under `/backend`. Both run agents through the chat
 * service, with the chat's limits and the runs table, so a run here is one more chat run.
 */
export const agentApiRoutes: FastifyPluginAsync<AgentApiPluginOptions> = async (app, options) => {
  const { deps, executor } = options;
  const { config } = deps;
  const chat = createChatService({ ...chatDepsFrom(deps, app.log, options.modelSelection), executor });
  const routeOptions = {
    chat,
    agents: deps.agents,
    publicUrl: config.publicUrl,
    // What the answer tells the caller; whole minutes, as the setting is at least 5 seconds.
    approvalMinutes: Math.max(1, Math.round((config.llm.approvalTtlMs ?? APPROVAL_TTL_MS) / 60_000)),
    checkBudget: deps.usage.checkBudget,
  };
  const cors = {
    publicOrigin: new URL(config.publicUrl).origin,
    anyKeyAllowsOrigin: deps.anyKeyAllowsOrigin,
  };
  for (const [routes, prefix, paths] of [
    [openAiRoutes, OPENAI_API_PATH, ['/models', '/chat/completions', '/responses']],
    [mcpRoutes, MCP_PATH, ['/:agent_id']],
  ] as const) {
    await app.register(
      async (scope) => {
        // Browsers' CORS: answered for the origins API keys list (api-cors.ts).
        registerApiPreflight(scope, cors, paths);
        scope.addHook('preHandler', async (request, reply) =>
          checkApiOrigin(request, reply, cors.publicOrigin),
        );
        await scope.register(routes, routeOptions);
      },
      { prefix },
    );
  }
};
