import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const models = (entries: object[]) => JSON.stringify(entries);
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

describe('LLM_MODELS', () => {
  it('offers the declared models, reads each key from the variable it names, and adds the offline model', () => {
    const llm = loadConfig({
      LLM_MODELS: models([
        {
          id: 'fast',
          label: 'Fast',
          provider: 'openai',
          model: 'gpt-4o-mini',
          api_key_env: 'OPENAI_KEY_FOR_TEST',
          context_window: 128000,
          input_price_per_million: 0.15,
          output_price_per_million: 0.6,
        },
        {
          id: 'local',
          provider: 'openai-compatible',
          model: 'llama3.1',
          base_url: 'http://127.0.0.1:11434/v1/',
        },
      ]),
      OPENAI_KEY_FOR_TEST: 'sk-test',
    }).llm;
    expect(llm.defaultModel).toBe('fast');
    expect(llm.models.map((m) => m.id)).toEqual(['fast', 'local', 'offline']);
    expect(llm.models[0]).toMatchObject({
      label: 'Fast',
      apiKey: 'sk-test',
      contextWindow: 128000,
      inputPricePerMillion: 0.15,
      outputPricePerMillion: 0.6,
    });
    expect(llm.models[1]).toMatchObject({
      label: 'local',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
    });
  });

  it('takes the default from LLM_DEFAULT_MODEL, which may be the offline model', () => {
    const env = {
      LLM_MODELS: models([
        { id: 'local', provider: 'openai-compatible', model: 'x', base_url: 'http://h/v1' },
      ]),
    };
    expect(loadConfig({ ...env, LLM_DEFAULT_MODEL: 'offline' }).llm.defaultModel).toBe('offline');
    expect(problems({ ...env, LLM_DEFAULT_MODEL: 'nope' })).toEqual([
      'LLM_DEFAULT_MODEL: must be one of the offered models: local, offline (got "nope")',
    ]);
  });

  it('names the entry and the field of every problem', () => {
    expect(
      problems({
        LLM_MODELS: models([
          { id: 'a', provider: 'anthropic', model: 'claude', api_key_env: 'UNSET_KEY_VARIABLE' },
          { id: 'b', provider: 'openai-compatible', model: 'llama' },
          { id: 'a', provider: 'openai', model: 'gpt' },
        ]),
      }),
    ).toEqual([
      'LLM_MODELS[0].api_key_env: names UNSET_KEY_VARIABLE, which is not set',
      'LLM_MODELS[1].base_url: must be set for openai-compatible',
      'LLM_MODELS[2].id: "a" is used twice',
      'LLM_MODELS[2].api_key_env: must be set for openai: the name of the variable holding the key',
    ]);
    expect(problems({ LLM_MODELS: models([{ id: 'x', provider: 'gemini', model: 'g', price: 1 }]) })).toEqual(
      [
        'LLM_MODELS[0].provider: must be openai, anthropic or openai-compatible',
        'LLM_MODELS[0].price: is not a known field',
      ],
    );
  });

  it('refuses a key written into the JSON, and the offline id, and anything but an array', () => {
    expect(
      problems({ LLM_MODELS: models([{ id: 'k', provider: 'openai', model: 'g', api_key: 'sk-secret' }]) }),
    ).toContain(
      'LLM_MODELS[0].api_key: put the key in an environment variable and name that variable in api_key_env',
    );
    expect(
      problems({
        LLM_MODELS: models([
          { id: 'offline', provider: 'openai-compatible', model: 'g', base_url: 'http://h' },
        ]),
      }),
    ).toEqual(['LLM_MODELS[0].id: "offline" is the built-in offline model\'s id']);
    expect(problems({ LLM_MODELS: '{"id":"x"}' })).toEqual(['LLM_MODELS: must be a JSON array of models']);
    expect(problems({ LLM_MODELS: 'not json' })).toEqual(['LLM_MODELS: must be a JSON array of models']);
  });

  it('never prints a key in its errors', () => {
    const text = problems({
      LLM_MODELS: models([{ id: 'k', provider: 'openai', model: 'g', api_key: 'sk-very-secret' }]),
    }).join('\n');
    expect(text).not.toContain('sk-very-secret');
  });

  it('refuses LLM_MODELS together with the single-model settings', () => {
    const [problem] = problems({
      LLM_MODELS: '[]',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'x',
      LLM_BASE_URL: 'http://h/v1',
    });
    expect(problem).toMatch(/^LLM_MODELS: is set together with LLM_PROVIDER\/LLM_MODEL/);
  });

  it('offers only the offline model when nothing is configured, and an empty list the same', () => {
    expect(loadConfig({}).llm.models.map((m) => m.id)).toEqual(['offline']);
    expect(loadConfig({ LLM_MODELS: '[]' }).llm).toMatchObject({ defaultModel: 'offline' });
  });
});
