import type { FastifyBaseLogger } from 'fastify';
import type { ChatServiceDeps } from './context.ts';
import { createModelCatalog, fixedCatalog } from './llm/model-catalog.ts';
import type { ModelSelection } from './llm/select-model.ts';
import type { ChatAppDeps } from './ports.ts';
import { runRegistryFor } from './run-registry.ts';

/**
 * What every chat service in the app shares: the app's database and modules, the operator's model
 * and run limits (`LLM_*`), and this instance's run registry. The chat, the agent API and the
 * trigger worker each make a service from it, adding their own tools executor and extras.
 */
export function chatDepsFrom(
  deps: ChatAppDeps,
  log: FastifyBaseLogger,
  selection?: ModelSelection,
): Pick<
  ChatServiceDeps,
  | 'db'
  | 'agents'
  | 'knowledge'
  | 'audit'
  | 'models'
  | 'limits'
  | 'runs'
  | 'usage'
  | 'telemetry'
  | 'servicesUrl'
> {
  const { config, db } = deps;
  const { llm } = config;
  return {
    db,
    agents: deps.agents,
    knowledge: deps.knowledge,
    audit: deps.audit,
    models: selection ? fixedCatalog(selection) : createModelCatalog(llm, { log, telemetry: deps.telemetry }),
    limits: {
      maxSteps: llm.maxSteps,
      maxToolCallsPerTurn: llm.maxToolCallsPerTurn,
      maxOutputTokens: llm.maxOutputTokens,
      turnsPerMinute: llm.turnsPerMinute,
      maxConcurrentTurns: llm.maxConcurrentTurns,
      approvalTtlMs: llm.approvalTtlMs,
    },
    runs: runRegistryFor({ db, lifecycle: deps.lifecycle, log, shutdownTimeoutMs: config.shutdownTimeoutMs }),
    usage: deps.usage,
    telemetry: deps.telemetry,
    servicesUrl: `${config.publicUrl}/services`,
  };
}
