/** The agent-api module's public face: the OpenAI-compatible API and the per-agent MCP servers. */
export { agentApiRoutes, type AgentApiPluginOptions } from './plugin.ts';
