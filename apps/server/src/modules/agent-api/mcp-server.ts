import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { AgentProfile } from './ports.ts';
import { API_VERSION } from '../../http/openapi.ts';
import { linkedThread, startAsk } from './ask.ts';
import type { AgentApiOptions } from './openai-routes.ts';

/*
 * The MCP SDK's server side, apart from the routes (mcp-routes.ts) so that it is loaded on the
 * first MCP request rather than at every start.
 */

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
      const outcome = await ask.answer({ text: (piece) => (text += piece) });
      if (outcome.failure) text += `${text ? '\n\n' : ''}${outcome.failure.message}`;
      const failed = outcome.failure !== undefined && outcome.failure.category !== 'limit';
      return { content: [{ type: 'text' as const, text }], isError: failed || undefined };
    },
  );
  return server;
}

/** Answers one MCP request (one JSON-RPC message) for the agent, as its own stateless server. */
export async function answerMcp(
  options: Pick<AgentApiOptions, 'chat' | 'publicUrl' | 'approvalMinutes'>,
  agent: AgentProfile,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const server = agentServer(options, agent, request.user.id);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  // The SDK writes the answer itself: the headers set so far (CORS) go on the raw response first.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  reply.hijack();
  // Closing the server also aborts a running tool call's signal: a client that goes away stops its run.
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}
