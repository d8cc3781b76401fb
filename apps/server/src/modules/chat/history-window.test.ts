import { describe, expect, it } from 'vitest';
import { historyWindow } from './history-window.ts';
import { fitToBudget } from './runtime/context-budget.ts';
import { toModelMessages, type StoredMessage, type StoredPart } from './runtime/messages.ts';

/** A thread in memory behind the two reads `historyWindow` uses, counting the messages read. */
function threadOf(messages: StoredMessage[]) {
  let read = 0;
  const repo = {
    listMessages: async () => {
      read += messages.length;
      return structuredClone(messages);
    },
    listMessagesNewestFirst: async (
      _userId: number,
      _threadId: string,
      limit: number,
      before?: Pick<StoredMessage, 'createdAt' | 'id'>,
    ) => {
      const older = before
        ? messages.filter(
            (m) => m.createdAt < before.createdAt || (m.createdAt === before.createdAt && m.id < before.id),
          )
        : messages;
      const page = older.slice(-limit).reverse();
      read += page.length;
      return structuredClone(page);
    },
  };
  return { repo, read: () => read };
}

/** A pseudo-random thread: turns of a question and an answer, some with a tool call, of varied sizes. */
function randomThread(seed: number, turns: number): StoredMessage[] {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const messages: StoredMessage[] = [];
  for (let t = 0; t < turns; t++) {
    const text = (n: number) => `${t}:${'w '.repeat(random(n) + 1)}`;
    messages.push({
      id: `u${t}`,
      role: 'user',
      parts: [{ type: 'text', text: text(400) }],
      status: 'complete',
      createdAt: at(messages.length),
    });
    const parts: StoredPart[] = [{ type: 'step-start' }];
    if (random(3) === 0)
      parts.push(
        {
          type: 'dynamic-tool',
          toolCallId: `c${t}`,
          toolName: 'fetch',
          state: 'output-available',
          input: { q: t },
          output: { page: 'x'.repeat(random(6000)) },
          toolMetadata: { actionId: 1, effect: 'read' },
        },
        { type: 'step-start' },
      );
    parts.push({ type: 'text', text: text(600) });
    messages.push({
      id: `a${t}`,
      role: 'assistant',
      parts,
      status: 'complete',
      createdAt: at(messages.length),
    });
  }
  return messages;
}

/** What the model is sent after `change` makes the turn's history from `history`. */
const sent = (history: StoredMessage[], change: (h: StoredMessage[]) => StoredMessage[], budget: number) =>
  fitToBudget(toModelMessages(change(structuredClone(history))), budget);

const changes: Record<string, (h: StoredMessage[]) => StoredMessage[]> = {
  append: (h) => [
    ...h,
    {
      id: 'new',
      role: 'user',
      parts: [{ type: 'text', text: 'and now?' }],
      status: 'complete',
      createdAt: '2030-01-01T00:00:00.000Z',
    },
  ],
  // As editLastUserMessage and dropLastAnswer do: the newest user message changed, the answers after it gone.
  edit: (h) => {
    const last = h.findLastIndex((m) => m.role === 'user');
    h[last]!.parts = [{ type: 'text', text: 'x'.repeat(5000) }];
    return h.slice(0, last + 1);
  },
  regenerate: (h) => h.slice(0, h.findLastIndex((m) => m.role === 'user') + 1),
};

describe("a turn's history window", () => {
  it('sends the model what the whole thread would, for every kind of turn', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      for (const turns of [0, 1, 3, 40, 200]) {
        const whole = randomThread(seed, turns);
        for (const budget of [50, 700, 4000, 32_000]) {
          const { repo } = threadOf(whole);
          const window = await historyWindow(repo, 1, 't', budget);
          expect(whole.slice(whole.length - window.length)).toEqual(window);
          for (const [kind, change] of Object.entries(changes)) {
            if (kind !== 'append' && turns === 0) continue;
            expect(
              sent(window, change, budget),
              `${kind}, seed ${seed}, ${turns} turns, budget ${budget}`,
            ).toEqual(sent(whole, change, budget));
          }
        }
      }
    }
  });

  it('reads about what the budget holds, however long the thread', async () => {
    const read = async (messages: StoredMessage[]) => {
      const thread = threadOf(messages);
      await historyWindow(thread.repo, 1, 't', 4000);
      return thread.read();
    };
    const long = randomThread(9, 5000);
    // The same newest messages, in a thread of 600.
    const short = await read(long.slice(-600));
    expect(short).toBeLessThan(300);
    expect(await read(long)).toBe(short);
  });

  it('reads the whole thread when the model has no budget', async () => {
    const whole = randomThread(1, 50);
    expect(await historyWindow(threadOf(whole).repo, 1, 't', undefined)).toEqual(whole);
  });
});
