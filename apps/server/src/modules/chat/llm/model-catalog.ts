import type { LlmConfig } from '../../../config.ts';
import { selectModel, type ModelSelection, type SelectModelOptions } from './select-model.ts';

/** The model a run uses, and what to tell the person when it is not the agent's own. */
export interface ResolvedModel {
  selection: ModelSelection;
  /** Set when the agent names a model that is no longer offered: the run uses the default. */
  notice?: string;
}

/** The offered models, made callable once; an agent's model is looked up by its id. */
export interface ModelCatalog {
  /** The agent's model (null: the default); an id no longer offered falls back to the default. */
  forAgent(modelId: string | null | undefined): ResolvedModel;
  /** The display name of an offered model; undefined for an id no longer offered. */
  nameOf(id: string): string | undefined;
}

export const replacedModelNotice = (wanted: string, used: string) =>
  `This agent's model '${wanted}' is no longer offered; answered with '${used}'.`;

export function createModelCatalog(llm: LlmConfig, options: SelectModelOptions = {}): ModelCatalog {
  const timeouts = { firstByteTimeoutMs: llm.firstByteTimeoutMs, idleTimeoutMs: llm.idleTimeoutMs };
  const byId = new Map(llm.models.map((m) => [m.id, selectModel({ ...m, ...timeouts }, options)]));
  const fallback = byId.get(llm.defaultModel);
  if (!fallback) throw new Error(`The default model ${llm.defaultModel} is not among the offered models`);
  return {
    forAgent(modelId) {
      if (!modelId) return { selection: fallback };
      const own = byId.get(modelId);
      return own
        ? { selection: own }
        : { selection: fallback, notice: replacedModelNotice(modelId, fallback.id) };
    },
    nameOf: (id) => byId.get(id)?.name,
  };
}

/** Every agent on one given model (tests that script the model). */
export const fixedCatalog = (selection: ModelSelection): ModelCatalog => ({
  forAgent: () => ({ selection }),
  nameOf: (id) => (id === selection.id ? selection.name : undefined),
});
