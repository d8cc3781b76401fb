import type { JSONSchema7 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { derivedStarters } from './starters.ts';

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

describe('derived starters', () => {
  it('are questions with real values for built-in tools, never templates', () => {
    expect(derivedStarters([weather, topStories])).toEqual([
      "What's the weather in Paris?",
      'What are the top stories on Hacker News?',
    ]);
  });

  it('make a sentence with sample values for a tool the phrase data does not know, or leave it out', () => {
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
    expect(derivedStarters([search, send, alerts])).toEqual([
      'Send email to ana@example.com titled "Team lunch" saying "See you at noon"',
      'Show alerts for "CA"',
    ]);
    expect(derivedStarters([search])).toEqual(['What can you do?']);
  });

  it('are at most four (or the limit given), skipping deletions and tools that need an id', () => {
    const calculator = ['add', 'subtract', 'multiply', 'divide', 'power'].map((name) =>
      tool(name, name, `${name} two numbers`, { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    );
    const id = { id: { type: 'integer' } } as const;
    const notes = [
      tool('delete_note', 'Delete note', 'Deletes a note for good.', id, ['id']),
      tool('get_note', 'Read note', 'Reads one note by id.', id, ['id']),
    ];
    expect(derivedStarters([...notes, ...calculator])).toEqual([
      'Add 9 and 33',
      'Subtract 8 from 50',
      'What is 12 times 7?',
      'Divide 250 by 4',
    ]);
    expect(derivedStarters(calculator, 3)).toHaveLength(3);
  });

  it('ask what the agent can do when it has no tools', () => {
    expect(derivedStarters([])).toEqual(['What can you do?']);
  });
});
