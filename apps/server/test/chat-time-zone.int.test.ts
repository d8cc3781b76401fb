import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/modules/offline-model/index.ts';
import {
  attach,
  chatHarness,
  seedAction,
  seedAgent,
  streamedText,
  uiChunks,
  type ChatHarness,
} from './support/chat-fixtures.ts';
import { createUser } from './support/users.ts';

const eventSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    start: { type: 'string', format: 'date-time' },
    end: { type: 'string', format: 'date-time' },
  },
  required: ['title', 'start', 'end'],
};

/**
 * The frame sends the person's time zone with each turn; the system prompt tells every model the
 * zone and the time there, so "tomorrow at 3pm" is 15:00 in the person's own zone.
 */
describe('the person’s time zone in a chat turn', () => {
  let h: ChatHarness;
  let headers: Record<string, string>;

  beforeAll(async () => {
    h = await chatHarness();
    const alice = await createUser(h.db, 'alice');
    const agent = await seedAgent(h.db, alice, 'Planner');
    const event = await seedAction(h.db, {
      name: 'create_event',
      description: 'Adds an event to your calendar.',
      effect: 'write',
      schema: eventSchema,
    });
    await attach(h.db, agent, event, 0);
    headers = await h.signIn(alice, agent);
    h.model.slot.model = createOfflineModel();
  });
  afterAll(() => h.t.close());

  const turn = (payload: object) =>
    h.t.app.inject({ method: 'POST', url: '/chainlit/chat', headers, payload });

  it.each([
    ['Asia/Tokyo', /T15:00:00\+09:00$/],
    ['America/New_York', /T15:00:00-0[45]:00$/],
  ])('reads "tomorrow at 3pm" in %s', async (timeZone, start) => {
    const res = await turn({ text: 'remind me tomorrow at 3pm to call Sam', timeZone });
    expect(res.statusCode).toBe(200);
    const call = uiChunks(res.body).find((c) => c.type === 'tool-input-available') as
      { input: { title: string; start: string } } | undefined;
    expect(call?.input.title).toBe('call Sam');
    expect(call?.input.start).toMatch(start);
  });

  it('asks one question for a missing time and uses the answer on the next turn of the thread', async () => {
    const first = await turn({ text: 'remind me to call Sam', timeZone: 'Europe/Paris' });
    const chunks = uiChunks(first.body);
    expect(chunks.some((c) => c.type === 'tool-input-available')).toBe(false);
    expect(streamedText(chunks)).toContain('To run **create_event** I need the **start**');
    const threadId = first.headers['x-thread-id'] as string;
    const second = await turn({ threadId, text: 'tomorrow at 3pm', timeZone: 'Europe/Paris' });
    const call = uiChunks(second.body).find((c) => c.type === 'tool-input-available') as
      { input: { title: string; start: string; end: string } } | undefined;
    expect(call?.input).toMatchObject({
      title: 'call Sam',
      start: expect.stringMatching(/T15:00:00\+0[12]:00$/),
    });
    expect(call?.input.end).toMatch(/T16:00:00\+0[12]:00$/);
  });

  it('refuses an unknown time zone with 422 naming the field', async () => {
    const res = await turn({ text: 'hello', timeZone: 'Mars/Olympus' });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).toContain('timeZone');
  });
});
