import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentParamsSchema, errorSchema } from '@cadre/contract';
import type { AgentProfile } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { API_VERSION } from '../../http/openapi.ts';
import { reachableAgent } from './access.ts';
import { linkedThread, startAsk } from './ask.ts';
import type { AgentApiOptions } from './openai-routes.ts';

const params = agentParamsSchema;

/** The one tool's name: `ask_` and the agent's name in lower-case letters, digits and `_`. */
function askToolName(agent: Pick<AgentProfile, 'id' | 'name'>): string {
  const slug = agent.name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 59);
  return `ask_${slug || `agent_${agent.id}`}`;
}

/** Whether a JSON-RPC message (or batch) calls a tool, which runs the agent. */
const callsTool = (body: unknown): boolean =>
  Array.isArray(body)
    ? body.some(callsTool)
    : typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call';

/** An MCP server with the agent's one tool; each request gets its own (stateless). */
function agentServer(
  options: Pick<AgentApiOptions, 'chat' | 'publicUrl' | 'approvalMinutes'>,
  agent: AgentProfile,
  userId: number,
) {
  const server = new McpServer({ name: `cadre-agent-${agent.id}`, version: API_VERSION });
  server.registerTool(
    askToolName(agent),
    {
      title: agent.name,
      description: agent.description.trim() || `Ask the Cadre agent "${agent.name}".`,
      inputSchema: {
        message: z.string().min(1).max(32_000).describe('What to ask the agent'),
        continue_from: z
          .string()
          .max(2_000)
          .optional()
          .describe(
            'The approval link an earlier answer ended with: once the approval is decided in Cadre, ' +
              'the conversation goes on from there (the message is the next turn)',
          ),
      },
    },
    async ({ message, continue_from: link }, extra) => {
      const threadId = link === undefined ? undefined : linkedThread(agent.id, link);
      if (link !== undefined && threadId === undefined) {
        const text = `continue_from: not an approval link of this agent (…/agents/${agent.id}/chat/<thread id>)`;
        return { content: [{ type: 'text' as const, text }], isError: true };
      }
      const ask = await startAsk(options.chat, {
        userId,
        agent,
        messages: [{ role: 'user', text: message }],
        continues: threadId === undefined ? undefined : { threadId, from: 0 },
        origin: 'mcp',
        signal: extra.signal,
        publicUrl: options.publicUrl,
        approvalMinutes: options.approvalMinutes,
      });
      let text = '';
      const outcome = await ask.answer((piece) => (text += piece));
      if (outcome.failure) text += `${text ? '\n\n' : ''}${outcome.failure.message}`;
      const failed = outcome.failure !== undefined && outcome.failure.category !== 'limit';
      return { content: [{ type: 'text' as const, text }], isError: failed || undefined };
    },
  );
  return server;
}

/**
 * Each agent as an MCP server over Streamable HTTP (docs/api.md), in stateless mode: nothing about
 * a client is kept between requests, so any instance answers any request. The bearer is an API key
 * with the `chat` scope (or a sign-in token); the agent runs as in the OpenAI-compatible API.
 */
export const mcpRoutes: FastifyPluginAsyncZod<AgentApiOptions> = async (app, options) => {
  const { agents } = options;
  const jsonRpcError = z.object({
    jsonrpc: z.literal('2.0'),
    error: z.object({ code: z.number(), message: z.string() }),
    id: z.null(),
  });
  const response = {
    401: errorSchema,
    403: errorSchema,
    404: errorSchema,
    405: jsonRpcError,
    429: errorSchema,
  };
  const config = { apiKeyScope: 'chat' as const };
  const post = {
    operationId: 'mcpAgent',
    tags: ['mcp'],
    summary: 'Speaks MCP Streamable HTTP (JSON-RPC 2.0) for one agent: one tool, ask_<agent name>',
    description:
      'Stateless: every JSON-RPC message is its own POST and is answered in JSON. See docs/api.md.',
    params,
    response: { 200: z.unknown().describe('The JSON-RPC response'), ...response },
  };

  app.post('/:agent_id', { config, schema: post }, async (request, reply) => {
    const agent = await reachableAgent(agents, request, request.params.agent_id);
    if (!agent) throw notFound('Agent not found');
    // A call of the agent's tool past the month's token budget is a 429 (with Retry-After), as on
    // the OpenAI-compatible API; listing the tool still works.
    if (callsTool(request.body)) await options.checkBudget(request.user.id);
    const server = agentServer(options, agent, request.user.id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    // Closing the server also aborts a running tool call's signal: a client that goes away stops its run.
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: no server-to-client stream to open and no session to end.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/:agent_id',
      config,
      schema: { hide: true, params, response },
      handler: async (request, reply) => {
        if (!(await reachableAgent(agents, request, request.params.agent_id)))
          throw notFound('Agent not found');
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null });
      },
    });
  }
};
