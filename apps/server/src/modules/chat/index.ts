/** The chat module's public face: what the app, the demos and the trigger worker use of it. */
export { chatRoutes, type ChatModuleOptions, type ChatPluginOptions } from './plugin.ts';
export type { ChatSessionStrategy } from './http/session-auth.ts';
export { createChatService, type ChatService, type ChatServiceDeps } from './service.ts';
export { selectModel, type ModelSelection } from './llm/select-model.ts';
export { chatToolsOf, createToolsExecutor } from './tools-executor.ts';
export type { AgentTool, ToolExecutionResult, ToolExecutor } from './runtime/ports.ts';
export { defaultChatDist, frameFiles } from './http/frame-files.ts';
export { runRegistryFor, type RunRegistry } from './run-registry.ts';
export { chatUserData } from './user-data.ts';
export { endChatSessionsOf } from './sessions.ts';
export type { ApiRun, ApiRunInput } from './api-runs.ts';
export type { GenerationOptions, RunOutcome } from './runtime/run.ts';
export { API_WRITE_REFUSAL } from './runtime/refusals.ts';
export { APPROVAL_TTL_MS } from './context.ts';
export { chatDepsFrom } from './app-deps.ts';
export type { ChatAppDeps } from './ports.ts';
