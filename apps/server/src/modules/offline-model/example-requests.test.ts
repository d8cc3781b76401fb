import type { JSONSchema7 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { exampleRequests } from './index.ts';

/** A tool as an agent has it attached: name, display name, description, JSON Schema. */
const tool = (
  name: string,
  displayName: string,
  description: string,
  properties: Record<string, JSONSchema7> = {},
  required: string[] = [],
) => ({ name, displayName, description, inputSchema: { type: 'object' as const, properties, required } });

const city = {
  type: 'string',
  description: 'City name, optionally with a country code: "Berlin,DE"',
} as const;
const weather = tool('current_weather', 'Current weather', 'The current weather in a city.', { city }, [
  'city',
]);
const topStories = tool('top_stories', 'Top stories', 'The current top stories on Hacker News.', {
  limit: { type: 'integer' },
});

describe('example requests (the starters of an empty chat)', () => {
  it('are questions with real values for built-in tools, never templates', async () => {
    expect(await exampleRequests([weather, topStories], 4)).toEqual([
      "What's the weather in Paris?",
      'What are the top stories on Hacker News?',
    ]);
  });

  it('make a sentence with sample values for a tool the phrase data does not know, or leave it out', async () => {
    const send = tool(
      'GMAIL_SEND_EMAIL',
      'Send Email',
      'Send an email using Gmail.',
      { recipient_email: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
      ['recipient_email', 'subject', 'body'],
    );
    const alerts = tool(
      'get_alerts',
      'get_alerts',
      'Get weather alerts for a US state.',
      { state: { type: 'string', description: 'Two-letter US state code (e.g. CA, NY)' } },
      ['state'],
    );
    // A query with no hint of what to search for has no plausible sample: no starter at all.
    const search = tool(
      'brave_web_search',
      'brave_web_search',
      'Web search.',
      { query: { type: 'string' } },
      ['query'],
    );
    expect(await exampleRequests([search, send, alerts], 4)).toEqual([
      'Send email to ana@example.com titled "Team lunch" saying "See you at noon"',
      'Show alerts for "CA"',
    ]);
    expect(await exampleRequests([search], 4)).toEqual([]);
  });

  it('are at most the limit given, skipping deletions and tools that need an id', async () => {
    const calculator = ['add', 'subtract', 'multiply', 'divide', 'power'].map((name) =>
      tool(name, name, `${name} two numbers`, { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    );
    const id = { id: { type: 'integer' } } as const;
    const notes = [
      tool('delete_note', 'Delete note', 'Deletes a note for good.', id, ['id']),
      tool('get_note', 'Read note', 'Reads one note by id.', id, ['id']),
    ];
    expect(await exampleRequests([...notes, ...calculator], 4)).toEqual([
      'Add 9 and 33',
      'Subtract 8 from 50',
      'What is 12 times 7?',
      'Divide 250 by 4',
    ]);
    expect(await exampleRequests(calculator, 3)).toHaveLength(3);
  });

  it('are none for an agent without tools', async () => {
    expect(await exampleRequests([], 4)).toEqual([]);
  });
});
