import type { JSONValue, LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { converse } from '../../../test/offline-phrasing/run-row.ts';
import { toolsOf } from '../../../test/offline-phrasing/toolkits.ts';
import { answerFor, summary } from './answers.ts';
import { failureAnswer } from './failures.ts';
import { knowledgeAnswer } from './knowledge.ts';
import { createOfflineModel } from './index.ts';

/** What no answer of the offline model may show: a tool's internal name, JSON, an error class. */
const INTERNALS = /returned:|[{}[\]"]\w+"?:|\b\w+_\w+\b|AI_\w+|ToolFailure|\w+Error\b/;

const context = (input: Record<string, JSONValue> = {}, titles: Record<number, string> = {}) => ({
  input,
  timeZone: 'Europe/Paris',
  titleOf: (id: unknown) => titles[Number(id)],
});
const note = (id: number, title: string, body = '') => ({
  id,
  title,
  body,
  created_at: '2026-03-09T10:00:00Z',
  updated_at: '2026-03-09T10:00:00Z',
});

describe('the answer templates of the built-in tools', () => {
  it('say what a notes tool did as a person would', () => {
    expect(answerFor('create_note', note(1, 'buy bread'), context())).toBe('Noted: buy bread.');
    const list = answerFor(
      'list_notes',
      { notes: [note(1, 'buy bread'), note(2, 'renew passport', 'before May'), note(3, 'call Sam')] },
      context(),
    );
    expect(list).toBe('You have 3 notes:\n\n- buy bread\n- renew passport — before May\n- call Sam');
    expect(answerFor('list_notes', { notes: [] }, context())).toBe('You have no notes yet.');
    expect(
      answerFor('delete_note', { deleted: true, id: 2 }, context({ id: 2 }, { 2: 'renew passport' })),
    ).toBe("Deleted the note 'renew passport'.");
    expect(answerFor('search_notes', { notes: [] }, context({ query: 'bread' }))).toBe(
      'I found no note about “bread”.',
    );
  });

  it('give events, times and sums in the person’s time zone and words', () => {
    const event = {
      id: 4,
      title: 'call Sam',
      start: '2026-03-10T14:00:00.000Z',
      end: '2026-03-10T15:00:00.000Z',
    };
    expect(answerFor('create_event', event, context())).toBe(
      'Added “call Sam” to your calendar: Tue 10 Mar, 15:00–16:00.',
    );
    expect(answerFor('list_events', { events: [event] }, context())).toBe(
      'You have 1 event:\n\n- Tue 10 Mar, 15:00–16:00: call Sam',
    );
    expect(answerFor('evaluate', { expression: '12 * 4', result: 48 }, context())).toBe('12 * 4 = **48**');
    expect(answerFor('multiply', { result: 48 }, context({ a: 12, b: 4 }))).toBe('12 × 4 = **48**');
    expect(
      answerFor(
        'day_of_week',
        { date: '2026-12-25', day_of_week: 'Friday', iso_week: 52, day_of_year: 359 },
        context(),
      ),
    ).toBe('2026-12-25 is a Friday.');
  });

  it('summarise any other tool’s result in a few readable lines, never as JSON', () => {
    const found = summary({
      total: 2,
      items: [
        { id: 'a1', title: 'Trail shoes review', url: 'https://example.com/a', rating: 4.5 },
        { id: 'a2', title: 'Best of 2026', url: 'https://example.com/b', rating: 4 },
      ],
    });
    expect(found).toBe(
      'I found 2 results:\n\n- [Trail shoes review](https://example.com/a) (rating: 4.5)\n- [Best of 2026](https://example.com/b) (rating: 4)',
    );
    expect(summary({ name: 'Lyon', temperature_c: 12, conditions: 'light rain', station_id: 'X9' })).toBe(
      'Lyon\n\n- temperature c: 12\n- conditions: light rain',
    );
    expect(summary(null)).toBe('Done.');
  });
});

describe('failures in people’s words', () => {
  it('drop error classes and the SDK’s names, and say what was wrong with the input', () => {
    expect(failureAnswer('ToolFailure: There is no note 7')).toBe("That didn't work: There is no note 7.");
    const invalid = failureAnswer(
      'AI_InvalidToolInputError: Invalid input for tool create_note: Type validation failed: Value: {"title":"…"}.\n' +
        'Error message: Invalid arguments: title must NOT have more than 200 characters',
    );
    expect(invalid).toBe("I couldn't do that: the title is too long (at most 200 characters).");
    expect(failureAnswer('AI_TypeValidationError: Type validation failed')).not.toMatch(INTERNALS);
  });

  it('keep a disconnected service’s name and its Reconnect link', () => {
    expect(
      failureAnswer(
        'Multiply needs reconnecting: connect Calculator again on the Services page. [Reconnect](http://cadre.test/services)',
      ),
    ).toBe(
      "That didn't work: Multiply needs reconnecting: connect Calculator again on the Services page. [Reconnect](http://cadre.test/services)",
    );
  });
});

describe('knowledge answers', () => {
  const passage = (n: number, text: string) => ({
    n,
    file_id: 'f',
    file_name: 'policy.md',
    passage: n,
    page: null,
    text,
  });
  const long =
    'Our company values people. '.repeat(20) +
    'Employees get 28 vacation days a year, and unused days carry over until March. Parking is free.';

  it('quote the sentence that holds the fact, not the start of the passage', () => {
    const answer = knowledgeAnswer({ query: 'how many vacation days', passages: [passage(1, long)] })!;
    expect(answer).toContain(
      '> Employees get 28 vacation days a year, and unused days carry over until March. [1]',
    );
    expect(answer).not.toContain('Our company values people');
  });

  it('say the files do not cover a question no passage answers', () => {
    const answer = knowledgeAnswer({ query: 'the dress code for interviews', passages: [passage(1, long)] })!;
    expect(answer).toContain("Your files don't cover “the dress code for interviews”");
    expect(answer).not.toContain('>');
  });
});

describe('a record named by its topic', () => {
  it('is searched for, its deletion offered, and the deletion reported by its title', async () => {
    const tools = toolsOf(['notes']) as LanguageModelV4FunctionTool[];
    const model = createOfflineModel();
    const first = await converse(['delete the note about renew passport'], tools, model);
    expect(first.call).toEqual({ toolName: 'search_notes', input: { query: 'renew passport' } });
    // The runtime's next steps: the search's result, then (approved) the deletion's.
    const steps = [
      { toolName: 'search_notes', output: { notes: [note(5, 'renew passport')] } },
      { toolName: 'delete_note', output: { deleted: true, id: 5 } },
    ];
    const { answer, calls } = await runSteps(model, tools, 'delete the note about renew passport', steps);
    expect(calls).toEqual([{ toolName: 'delete_note', input: { id: 5 } }]);
    expect(answer).toBe("Deleted the note 'renew passport'.");
    expect(answer).not.toMatch(INTERNALS);
  });
});

/** The person's message, then each tool call answered with the given output, as the runtime runs them. */
async function runSteps(
  model: ReturnType<typeof createOfflineModel>,
  tools: LanguageModelV4FunctionTool[],
  message: string,
  steps: Array<{ toolName: string; output: JSONValue }>,
) {
  const prompt: Parameters<typeof model.doGenerate>[0]['prompt'] = [
    { role: 'user', content: [{ type: 'text', text: message }] },
  ];
  const calls: Array<{ toolName: string; input: unknown }> = [];
  let answer = '';
  for (const [i, step] of steps.entries()) {
    const callId = `c${i}`;
    prompt.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: callId, toolName: step.toolName, input: {} }],
    });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: callId,
          toolName: step.toolName,
          output: { type: 'json', value: step.output },
        },
      ],
    });
    const result = await model.doGenerate({ prompt, tools });
    const call = result.content.find((c) => c.type === 'tool-call');
    if (call) calls.push({ toolName: call.toolName, input: JSON.parse(call.input) });
    answer = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  }
  return { answer, calls };
}
