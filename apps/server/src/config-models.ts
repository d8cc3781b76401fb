import { z } from 'zod';

/**
 * The models an operator offers (LLM_MODELS, or the single-model settings as a one-entry list),
 * plus the built-in offline model, which is always offered. Read by `config.ts` only: the key of
 * an entry comes from the environment variable its `api_key_env` names, never from the JSON.
 */

export const OFFLINE_MODEL = 'offline';

export type LlmProvider = 'offline' | 'openai' | 'anthropic' | 'openai-compatible';

export interface LlmModelConfig {
  /** Unique; what agents store and people see beside an answer. */
  id: string;
  label: string;
  provider: LlmProvider;
  /** The provider's own name for the model. */
  model: string;
  baseUrl?: string;
  /** Never logged or returned. */
  apiKey?: string;
  contextWindow: number | null;
  /** Tokens of conversation sent with each call at most (older turns are left out); null: no limit. */
  contextBudget: number | null;
  inputPricePerMillion: number | null;
  outputPricePerMillion: number | null;
}

/** One problem with a setting: the path names the variable, then the entry and its field. */
export interface ModelsIssue {
  path: (string | number)[];
  message: string;
}

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const price = z.number().min(0, 'must be 0 or more').max(1_000_000).nullable().optional();

const entrySchema = z.strictObject({
  id: z
    .string()
    .regex(MODEL_ID, 'must be 1-100 letters, digits and . _ : / - (starting with a letter or digit)')
    .refine((id) => id !== OFFLINE_MODEL, `"${OFFLINE_MODEL}" is the built-in offline model's id`),
  label: z.string().trim().min(1, 'must not be blank').max(100).optional(),
  provider: z.enum(['openai', 'anthropic', 'openai-compatible'], {
    error: 'must be openai, anthropic or openai-compatible',
  }),
  model: z.string().trim().min(1, "must name the provider's model"),
  base_url: z.url('must be a URL').optional(),
  api_key_env: z
    .string()
    .regex(ENV_NAME, 'must be the NAME of an environment variable that holds the key')
    .optional(),
  context_window: z.number().int().min(1).nullable().optional(),
  context_budget: z.number().int().min(1000, 'must be at least 1000 tokens').optional(),
  input_price_per_million: price,
  output_price_per_million: price,
});

/** Unknown fields are refused; `api_key` gets its own message, as a key must not sit in this JSON. */
function fieldMessage(issue: z.core.$ZodIssue): ModelsIssue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: [...(issue.path as (string | number)[]), key],
      message: /key/i.test(key)
        ? 'put the key in an environment variable and name that variable in api_key_env'
        : 'is not a known field',
    }));
  }
  return [{ path: issue.path as (string | number)[], message: issue.message }];
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export const offlineModel = (): LlmModelConfig => ({
  id: OFFLINE_MODEL,
  label: 'Offline model',
  provider: 'offline',
  model: 'cadre-offline-1',
  contextWindow: null,
  // The built-in model reads only the newest message.
  contextBudget: null,
  inputPricePerMillion: 0,
  outputPricePerMillion: 0,
});

export interface SingleModelSettings {
  LLM_PROVIDER: LlmProvider;
  LLM_MODEL?: string;
  LLM_API_KEY?: string;
  LLM_BASE_URL?: string;
  /** The context budget of a model that names neither its own nor its context window. */
  LLM_CONTEXT_BUDGET: number;
}

/** Three quarters of the context window leave room for the instructions, the tools and the answer. */
const budgetOf = (contextWindow: number | null | undefined, fallback: number) =>
  contextWindow ? Math.floor((contextWindow * 3) / 4) : fallback;

/**
 * The configured models, offline last; or the problems, each naming `LLM_MODELS[i].field`.
 * `source` is the environment the keys are read from.
 */
export function parseLlmModels(
  text: string | undefined,
  single: SingleModelSettings,
  source: Record<string, string | undefined>,
): { models: LlmModelConfig[]; issues: ModelsIssue[] } {
  const fail = (issues: ModelsIssue[]) => ({ models: [], issues });
  if (text === undefined) {
    if (single.LLM_PROVIDER === 'offline' || !single.LLM_MODEL)
      return { models: [offlineModel()], issues: [] };
    const models: LlmModelConfig[] = [
      {
        id: single.LLM_MODEL,
        label: single.LLM_MODEL,
        provider: single.LLM_PROVIDER,
        model: single.LLM_MODEL,
        baseUrl: single.LLM_BASE_URL ? stripSlash(single.LLM_BASE_URL) : undefined,
        apiKey: single.LLM_API_KEY,
        contextWindow: null,
        contextBudget: single.LLM_CONTEXT_BUDGET,
        inputPricePerMillion: null,
        outputPricePerMillion: null,
      },
      offlineModel(),
    ];
    return { models, issues: [] };
  }
  const at = (...path: (string | number)[]) => ['LLM_MODELS', ...path];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return fail([{ path: at(), message: 'must be a JSON array of models' }]);
  }
  const parsed = z.array(entrySchema, { error: 'must be a JSON array of models' }).safeParse(raw);
  if (!parsed.success) {
    return fail(parsed.error.issues.flatMap(fieldMessage).map((i) => ({ ...i, path: at(...i.path) })));
  }
  const issues: ModelsIssue[] = [];
  const seen = new Set<string>();
  const models = parsed.data.map((entry, index): LlmModelConfig => {
    if (seen.has(entry.id)) issues.push({ path: at(index, 'id'), message: `"${entry.id}" is used twice` });
    seen.add(entry.id);
    if (entry.provider === 'openai-compatible' && !entry.base_url) {
      issues.push({ path: at(index, 'base_url'), message: 'must be set for openai-compatible' });
    }
    if (entry.context_budget && entry.context_window && entry.context_budget >= entry.context_window) {
      issues.push({ path: at(index, 'context_budget'), message: 'must be less than context_window' });
    }
    let apiKey: string | undefined;
    if (entry.api_key_env) {
      apiKey = source[entry.api_key_env]?.trim() || undefined;
      if (!apiKey) {
        issues.push({
          path: at(index, 'api_key_env'),
          message: `names ${entry.api_key_env}, which is not set`,
        });
      }
    } else if (entry.provider !== 'openai-compatible') {
      issues.push({
        path: at(index, 'api_key_env'),
        message: `must be set for ${entry.provider}: the name of the variable holding the key`,
      });
    }
    return {
      id: entry.id,
      label: entry.label ?? entry.id,
      provider: entry.provider,
      model: entry.model,
      baseUrl: entry.base_url ? stripSlash(entry.base_url) : undefined,
      apiKey,
      contextWindow: entry.context_window ?? null,
      contextBudget: entry.context_budget ?? budgetOf(entry.context_window, single.LLM_CONTEXT_BUDGET),
      inputPricePerMillion: entry.input_price_per_million ?? null,
      outputPricePerMillion: entry.output_price_per_million ?? null,
    };
  });
  return issues.length ? fail(issues) : { models: [...models, offlineModel()], issues };
}
