// An MCP server over stdio, started by the server under test from an operator's MCP_SERVERS entry.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'stdio-test', version: '1.0.0' });
server.registerTool(
  'shout',
  {
    title: 'Shout',
    description: 'Returns the text in capitals',
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
);
server.registerTool(
  'inherited_env',
  {
    description: 'Names the environment variables this process received that start with CADRE_',
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  async () => ({
    content: [
      {
        type: 'text',
        text:
          Object.keys(process.env)
            .filter((k) => k.startsWith('CADRE_'))
            .join(',') || 'none',
      },
    ],
  }),
);
await server.connect(new StdioServerTransport());
