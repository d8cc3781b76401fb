import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentParamsSchema, errorSchema } from '@cadre/contract';
import { notFound } from '../../http/errors.ts';
import { reachableAgent } from './access.ts';
import type { AgentApiOptions } from './openai-routes.ts';

const params = agentParamsSchema;

/**
 * Most JSON-RPC messages one MCP request may carry as a batch (docs/api.md). Each `tools/call` in
 * it runs the agent, concurrently, and counts against `CHAT_TURNS_PER_MINUTE` as a request of its
 * own would; the cap bounds what one request can start. (MCP's current protocol has no batches;
 * clients of its 2025-03-26 version may send them.)
 */
export const MCP_MAX_BATCH = 10;

/** The JSON-RPC error for a batch that is empty or past {@link MCP_MAX_BATCH}, or undefined. */
const batchRefusal = (body: unknown) => {
  if (!Array.isArray(body) || (body.length > 0 && body.length <= MCP_MAX_BATCH)) return undefined;
  const message =
    body.length === 0
      ? 'Invalid Request: an empty batch'
      : `Invalid Request: a batch holds at most ${MCP_MAX_BATCH} messages; this one holds ${body.length}. Send the rest in further requests.`;
  // -32600: JSON-RPC 2.0's Invalid Request; a batch refused whole is answered with one error, id null.
  return { jsonrpc: '2.0' as const, error: { code: -32600, message }, id: null };
};

/** Whether a JSON-RPC message (or batch) calls a tool, which runs the agent. */
const callsTool = (body: unknown): boolean =>
  Array.isArray(body)
    ? body.some(callsTool)
    : typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call';

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
    response: {
      200: z.unknown().describe('The JSON-RPC response'),
      400: jsonRpcError.describe(`A batch that is empty or holds more than ${MCP_MAX_BATCH} messages`),
      ...response,
    },
  };

  app.post('/:agent_id', { config, schema: post }, async (request, reply) => {
    const agent = await reachableAgent(agents, request, request.params.agent_id);
    if (!agent) throw notFound('Agent not found');
    const refusal = batchRefusal(request.body);
    if (refusal) return reply.code(400).send(refusal);
    // A call of the agent's tool past the month's token budget is a 429 (with Retry-After), as on
    // the OpenAI-compatible API; listing the tool still works.
    if (callsTool(request.body)) await options.checkBudget(request.user.id);
    // The MCP SDK is loaded with the first MCP request.
    await (await import('./mcp-server.ts')).answerMcp(options, agent, request, reply);
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
