import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../config.ts';
import { retryAfterMs } from './resilient-model.ts';

describe('LLM settings', () => {
  it('defaults to the offline model with the documented limits', () => {
    expect(loadConfig({}).llm).toEqual({
      models: [
        {
          id: 'offline',
          label: 'Offline model',
          provider: 'offline',
          model: 'cadre-offline-1',
          contextWindow: null,
          contextBudget: null,
          inputPricePerMillion: 0,
          outputPricePerMillion: 0,
        },
      ],
      defaultModel: 'offline',
      firstByteTimeoutMs: 30_000,
      idleTimeoutMs: 20_000,
      maxSteps: 10,
      maxToolCallsPerTurn: 10,
      maxOutputTokens: 4096,
      turnsPerMinute: 30,
      // Ten per core (docs/configuration.md).
      maxConcurrentTurns: 10 * os.availableParallelism(),
      approvalTtlMs: 900_000,
    });
  });

  it('reads a provider, model, key and base URL', () => {
    const llm = loadConfig({
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'llama3.1',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      LLM_MAX_STEPS: '4',
    }).llm;
    expect(llm).toMatchObject({ defaultModel: 'llama3.1', maxSteps: 4 });
    expect(llm.models.map((m) => m.id)).toEqual(['llama3.1', 'offline']);
    expect(llm.models[0]).toMatchObject({
      provider: 'openai-compatible',
      model: 'llama3.1',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
  });

  it('gives each model a context budget: its own, 3/4 of its window, or LLM_CONTEXT_BUDGET', () => {
    const compatible = { provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' };
    const models = (env: Record<string, string>) =>
      loadConfig(env).llm.models.map((m) => [m.id, m.contextBudget]);
    const list = JSON.stringify([
      { id: 'own', model: 'a', context_budget: 5000, context_window: 8000, ...compatible },
      { id: 'window', model: 'b', context_window: 8000, ...compatible },
      { id: 'neither', model: 'c', ...compatible },
    ]);
    expect(models({ LLM_MODELS: list })).toEqual([
      ['own', 5000],
      ['window', 6000],
      ['neither', 32_000],
      ['offline', null],
    ]);
    expect(models({ LLM_MODELS: list, LLM_CONTEXT_BUDGET: '2000' })[2]).toEqual(['neither', 2000]);
    expect(
      models({ LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'm', LLM_BASE_URL: 'http://h/v1' })[0],
    ).toEqual(['m', 32_000]);
    const tooBig = JSON.stringify([
      { id: 'x', model: 'a', context_budget: 9000, context_window: 8000, ...compatible },
    ]);
    expect(() => loadConfig({ LLM_MODELS: tooBig })).toThrow(/LLM_MODELS\[0\]\.context_budget/);
    expect(() => loadConfig({ LLM_CONTEXT_BUDGET: '10' })).toThrow(/LLM_CONTEXT_BUDGET/);
  });

  it('rejects an unknown provider and a bad base URL by name', () => {
    expect(() => loadConfig({ LLM_PROVIDER: 'gemini' })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_PROVIDER: 'gemini' })).toThrow(/LLM_PROVIDER/);
    expect(() => loadConfig({ LLM_BASE_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_BASE_URL: 'not a url' })).toThrow(/LLM_BASE_URL/);
  });
});

describe('retry-after parsing', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterMs({ 'Retry-After-Ms': '250' })).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
