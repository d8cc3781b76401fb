import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { fillArguments } from './arguments.ts';
import { createOfflineModel, OFFLINE_LABEL } from './index.ts';
import { tokens } from './output-limits.ts';
import { bestTool } from './tools.ts';
import { decideTurn } from './intents.ts';

const calculator = {
  type: 'function' as const,
  name: 'calculator_add',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object' as const,
    properties: { a: { type: 'number' as const }, b: { type: 'number' as const } },
    required: ['a', 'b'],
  },
};
const notes = {
  type: 'function' as const,
  name: 'notes_create',
  description: 'Create a note with a title and body',
  inputSchema: {
    type: 'object' as const,
    properties: { title: { type: 'string' as const }, body: { type: 'string' as const } },
    required: ['title'],
  },
};
const calendar = {
  type: 'function' as const,
  name: 'calendar_create_event',
  description: 'Create a calendar event',
  inputSchema: {
    type: 'object' as const,
    properties: {
      summary: { type: 'string' as const },
      date: { type: 'string' as const, format: 'date' },
      priority: { type: 'string' as const, enum: ['low', 'high'] },
    },
    required: ['summary', 'date'],
  },
};

async function collect(options: Partial<LanguageModelV4CallOptions>) {
  const model = createOfflineModel();
  const { stream } = await model.doStream({ prompt: [], ...options } as LanguageModelV4CallOptions);
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) parts.push(part);
  return parts;
}

const userSays = (text: string) => [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }];
const textOf = (parts: LanguageModelV4StreamPart[]) =>
  parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('');

describe('offline model', () => {
  it('picks the matching tool and fills numbers from the message', async () => {
    const parts = await collect({ prompt: userSays('Please add 2 and 3.5'), tools: [notes, calculator] });
    const call = parts.find((p) => p.type === 'tool-call');
    expect(call).toMatchObject({ type: 'tool-call', toolName: 'calculator_add' });
    expect(JSON.parse((call as { input: string }).input)).toEqual({ a: 2, b: 3.5 });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
  });

  it('fills quoted strings, key: value pairs, dates and enum words', () => {
    const clock = { now: new Date('2026-03-09T15:00:00Z'), timeZone: 'UTC' };
    expect(
      fillArguments('create a note "Groceries" body: milk and eggs', notes.inputSchema, { clock }).input,
    ).toEqual({
      title: 'Groceries',
      body: 'milk and eggs',
    });
    expect(
      fillArguments('add event "Dentist" tomorrow, high priority', calendar.inputSchema, { clock }).input,
    ).toEqual({
      summary: 'Dentist',
      date: '2026-03-10',
      priority: 'high',
    });
    expect(
      fillArguments('event on 2026-04-01 "Launch"', calendar.inputSchema, { clock }).input,
    ).toMatchObject({
      date: '2026-04-01',
      summary: 'Launch',
    });
  });

  it('gives the remaining text to a single free-text field', () => {
    const search = {
      type: 'object' as const,
      properties: { query: { type: 'string' as const }, limit: { type: 'integer' as const } },
      required: ['query'],
    };
    expect(fillArguments('search top 5 cheap flights to Lisbon', search).input).toEqual({
      query: 'cheap flights to Lisbon',
      limit: 5,
    });
    // A number that does not say what it counts stays in the text.
    expect(fillArguments('search the web for hiking boots 2026', search).input).toEqual({
      query: 'hiking boots 2026',
    });
  });

  it('asks for missing required arguments instead of calling', async () => {
    const parts = await collect({ prompt: userSays('add numbers please'), tools: [calculator] });
    expect(parts.some((p) => p.type === 'tool-call')).toBe(false);
    expect(textOf(parts)).toContain('I need the **a** and the **b**');
  });

  it('lists the tools when nothing matches', async () => {
    const parts = await collect({
      prompt: userSays('what is the weather in Oslo'),
      tools: [calculator, notes],
    });
    const text = textOf(parts);
    expect(text).toContain(OFFLINE_LABEL);
    expect(text).toContain('calculator_add');
    expect(text).toContain('notes_create');
  });

  it('explains itself when the agent has no tools', async () => {
    const parts = await collect({ prompt: userSays('hello') });
    expect(textOf(parts)).toContain('offline model');
  });

  it('reports a tool result as markdown, streamed word by word, and stops', async () => {
    const parts = await collect({
      prompt: [
        ...userSays('add 2 and 3'),
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'calculator_add', input: { a: 2, b: 3 } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'calculator_add',
              output: { type: 'json', value: { sum: 5, words: 'two plus three makes five' } },
            },
          ],
        },
      ],
      tools: [calculator],
    });
    expect(textOf(parts)).toContain('2 + 3 = **5**');
    expect(parts.filter((p) => p.type === 'text-delta').length).toBe(5);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('reports a denial', async () => {
    const parts = await collect({
      prompt: [
        ...userSays('note "x"'),
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'notes_create', input: {} }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'notes_create',
              output: { type: 'execution-denied' },
            },
          ],
        },
      ],
      tools: [notes],
    });
    expect(textOf(parts)).toContain('you denied it');
  });

  it('is deterministic for the same prompt', async () => {
    const a = await collect({ prompt: userSays('what now'), tools: [calculator] });
    const b = await collect({ prompt: userSays('what now'), tools: [calculator] });
    expect(textOf(a)).toBe(textOf(b));
  });

  it('matches tool names fuzzily and splits text into word deltas', () => {
    expect(bestTool('calculater please', [notes, calculator])?.name).toBe('calculator_add');
    expect(bestTool('zzz qqq', [notes, calculator])).toBeUndefined();
    expect(tokens('a bc  d')).toEqual(['a ', 'bc  ', 'd']);
  });

  it('leaves a request only like a tool verb to no tool, unless said as the command', () => {
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const, properties: {} } });
    const [createNote, searchNotes] = [tool('create_note'), tool('search_notes')];
    expect(bestTool('get me a new umbrella', [createNote])).toBeUndefined();
    expect(bestTool('book me a taxi to the airport', [createNote])).toBeUndefined();
    expect(bestTool('find me some concert tickets', [searchNotes])).toBeUndefined();
    expect(bestTool('save this: the locker is 4417', [createNote])?.name).toBe('create_note');
    expect(bestTool('look for the locker number', [searchNotes])?.name).toBe('search_notes');
  });

  it('searches for a record asked about by its topic, and lists for the next one', () => {
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const, properties: {} } });
    const tools = [tool('list_events'), tool('search_events')];
    expect(bestTool("when's the vet appointment", tools)?.name).toBe('search_events');
    expect(bestTool('when is my next meeting', tools)?.name).toBe('list_events');
  });

  it('reads a question about what was written as listing it, not writing more', () => {
    const createNote = {
      name: 'create_note',
      inputSchema: {
        type: 'object' as const,
        properties: { title: { type: 'string' as const } },
        required: ['title'],
      },
    };
    const listNotes = { name: 'list_notes', inputSchema: { type: 'object' as const, properties: {} } };
    const turn = (message: string) =>
      decideTurn(
        { message, agentName: 'Helper', clock: { now: new Date('2026-03-09T10:00:00Z'), timeZone: 'UTC' } },
        [createNote, listNotes],
      );
    expect(turn('have I jotted anything down this week?')).toMatchObject({
      toolCall: { toolName: 'list_notes' },
    });
    expect(turn('show my notebook')).toMatchObject({ toolCall: { toolName: 'list_notes' } });
  });

  it('reads amounts of time from now, holidays and a day of the month as dates', () => {
    const clock = { now: new Date('2026-03-09T10:00:00Z'), timeZone: 'UTC' };
    const dateTool = (name: string, properties: Record<string, object>) => ({
      name,
      inputSchema: { type: 'object' as const, properties, required: Object.keys(properties) },
    });
    const now = dateTool('now', {});
    const add = dateTool('add_to_date', {
      date: { type: 'string' },
      amount: { type: 'integer' },
      unit: { type: 'string', enum: ['days', 'weeks'] },
    });
    expect(bestTool('which date is it ten days from now', [now, add])?.name).toBe('add_to_date');
    expect(fillArguments('add seven weeks to 2026-05-01', add.inputSchema, { clock }).input).toMatchObject({
      amount: 7,
      unit: 'weeks',
      date: '2026-05-01',
    });
    const on = { type: 'object' as const, properties: { date: { type: 'string' as const, format: 'date' } } };
    expect(fillArguments('days left before halloween', on, { clock }).input.date).toBe('2026-10-31');
    expect(fillArguments('the party on the 21st', on, { clock }).input.date).toBe('2026-03-21');
    expect(fillArguments('rent due on the 2nd', on, { clock }).input.date).toBe('2026-04-02');
  });
});
