import { describe, expect, it } from 'vitest';
import type { ChatCompletionRequest, ResponseRequest } from '@cadre/contract';
import { completionGeneration, responseGeneration } from './generation.ts';
import { agentIdOf, modelIdOf } from './model-ids.ts';

const completion = (extra: Partial<ChatCompletionRequest>): ChatCompletionRequest => ({
  model: '1',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});
const schema = { type: 'object', properties: { n: { type: 'number' } } };

describe('generation settings per model', () => {
  it('takes the smaller token limit and every stop sequence', () => {
    expect(
      completionGeneration('offline', completion({ max_tokens: 50, max_completion_tokens: 20, stop: 'END' })),
    ).toEqual({
      maxOutputTokens: 20,
      stopSequences: ['END'],
      responseFormat: undefined,
    });
    expect(completionGeneration('openai', completion({ stop: ['a', 'b'] })).stopSequences).toEqual([
      'a',
      'b',
    ]);
    expect(
      completionGeneration('openai', completion({ response_format: { type: 'text' } })).responseFormat,
    ).toBeUndefined();
  });

  it('asks for JSON where the provider has it, and names the parameter where it has not', () => {
    const jsonObject = completion({ response_format: { type: 'json_object' } });
    const jsonSchema = completion({
      response_format: { type: 'json_schema', json_schema: { name: 'n', schema } },
    });
    expect(completionGeneration('openai-compatible', jsonObject).responseFormat).toEqual({ type: 'json' });
    expect(completionGeneration('anthropic', jsonSchema).responseFormat).toEqual({
      type: 'json',
      name: 'n',
      description: undefined,
      schema,
    });
    expect(() => completionGeneration('anthropic', jsonObject)).toThrow(
      expect.objectContaining({ param: 'response_format', code: 'bad_request' }),
    );
    expect(() => completionGeneration('offline', jsonSchema)).toThrow(
      expect.objectContaining({ param: 'response_format.json_schema' }),
    );
    const response = (format: object): ResponseRequest => ({
      model: '1',
      input: 'hi',
      text: { format } as ResponseRequest['text'],
    });
    expect(
      responseGeneration('openai', response({ type: 'json_schema', name: 'n', schema })).responseFormat,
    ).toMatchObject({ schema });
    expect(() => responseGeneration('offline', response({ type: 'json_object' }))).toThrow(
      expect.objectContaining({ param: 'text.format' }),
    );
  });

  it('asks OpenAI’s models for log probabilities, and refuses them elsewhere by name', () => {
    expect(completionGeneration('openai', completion({ logprobs: true })).logprobs).toBe(0);
    expect(completionGeneration('openai', completion({ logprobs: true, top_logprobs: 3 })).logprobs).toBe(3);
    expect(completionGeneration('openai', completion({ logprobs: false })).logprobs).toBeUndefined();
    for (const provider of ['offline', 'anthropic', 'openai-compatible'] as const) {
      expect(() => completionGeneration(provider, completion({ logprobs: true }))).toThrow(
        expect.objectContaining({ param: 'logprobs' }),
      );
    }
    // OpenAI asks for logprobs: true with top_logprobs.
    expect(() => completionGeneration('openai', completion({ top_logprobs: 2 }))).toThrow(
      expect.objectContaining({ param: 'top_logprobs' }),
    );
    // The Responses route relays none.
    expect(() =>
      responseGeneration('openai', { model: '1', input: 'hi', include: ['message.output_text.logprobs'] }),
    ).toThrow(expect.objectContaining({ param: 'include' }));
  });
});

describe('model ids', () => {
  it('are the name in ASCII words and the id, and the id at the end names the agent', () => {
    expect(modelIdOf({ id: 12, name: 'Sum Helper' })).toBe('sum-helper-12');
    expect(modelIdOf({ id: 3, name: 'Über Café — Notes!' })).toBe('uber-cafe-notes-3');
    expect(modelIdOf({ id: 4, name: '日本語' })).toBe('agent-4');
    expect(modelIdOf({ id: 5, name: 'x'.repeat(80) })).toBe(`${'x'.repeat(40)}-5`);
    for (const [model, id] of [
      ['sum-helper-12', 12],
      ['12', 12],
      [12, 12],
      ['old-name-12', 12],
    ] as const) {
      expect(agentIdOf(model)).toBe(id);
    }
    for (const model of ['sum-helper', 'Sum-Helper-12', '0', '12-', 'a_b-1', '99999999999', -1]) {
      expect(agentIdOf(model)).toBeUndefined();
    }
  });
});
