import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { DROPPED_TURNS_NOTE, fitToBudget } from './context-budget.ts';

const user = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'fetch', input: {} }],
});
const result = (id: string, value: unknown): ModelMessage => ({
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: id, toolName: 'fetch', output: { type: 'json', value } as never },
  ],
});
const texts = (messages: ModelMessage[]) =>
  messages.flatMap((m) =>
    typeof m.content === 'string' ? [m.content] : m.content.map((p) => ('text' in p ? p.text : p.type)),
  );

describe('fitting a thread to the context budget', () => {
  it('sends a thread that fits as it is', () => {
    const thread = [user('hello'), answer('hi'), user('how are you'), answer('fine')];
    expect(fitToBudget(thread, 1000)).toEqual(thread);
  });

  it('leaves out the oldest whole turns until the rest fits, keeping the newest and saying so', () => {
    const long = 'x'.repeat(2000); // about 500 tokens
    const thread = [
      user(`first ${long}`),
      call('c1'),
      result('c1', { page: long }),
      answer('done'),
      user(`second ${long}`),
      answer('ok'),
      user('third'),
    ];
    const fitted = fitToBudget(thread, 1200);
    // The first turn goes with its tool call and result, so no call is left without its result.
    expect(texts(fitted)).toEqual([DROPPED_TURNS_NOTE, `second ${long}`, 'ok', 'third']);
    expect(fitted.some((m) => m.role === 'tool')).toBe(false);

    // The newest turn is kept even when it alone is over the budget.
    expect(texts(fitToBudget(thread, 10))).toEqual([DROPPED_TURNS_NOTE, 'third']);
  });

  it('cuts a tool result to a quarter of the budget, with a note giving its length', () => {
    const page = 'y'.repeat(10_000);
    const fitted = fitToBudget([user('read it'), call('c1'), result('c1', page)], 1000);
    const tool = fitted[2] as Extract<ModelMessage, { role: 'tool' }>;
    const output = (tool.content[0] as { output: { type: string; value: string } }).output;
    expect(output.type).toBe('text');
    // A quarter of 1000 tokens at four characters a token.
    expect(output.value.startsWith(JSON.stringify(page).slice(0, 1000))).toBe(true);
    expect(output.value).toContain(`the tool's result was ${JSON.stringify(page).length} characters`);
    expect(output.value.length).toBeLessThan(1200);
    // A short result stays structured.
    const small = fitToBudget([user('read it'), call('c1'), result('c1', { ok: true })], 1000);
    expect(small[2]).toEqual(result('c1', { ok: true }));
  });
});
