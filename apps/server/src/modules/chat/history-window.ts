import type { ChatRepository } from './repository.ts';
import { budgetedTokens } from './runtime/context-budget.ts';
import { toModelMessages, type StoredMessage } from './runtime/messages.ts';

/** Messages read in the first page; the next pages are sized from what the messages read weigh. */
export const FIRST_WINDOW_PAGE = 64;
/** The most messages one page reads. */
const MAX_WINDOW_PAGE = 2_000;

/**
 * The next page: enough messages, at the average weight of those read, to fill what is left of the
 * budget, a fifth more and a few besides, so that a thread of messages alike is read in one more.
 */
function nextPage(read: number, tokens: number, budgetTokens: number): number {
  const perMessage = Math.max(tokens / read, 1);
  const wanted = Math.ceil(((budgetTokens - tokens) / perMessage) * 1.2) + 8;
  return Math.min(Math.max(wanted, FIRST_WINDOW_PAGE), MAX_WINDOW_PAGE);
}

/** A stored message that opens a turn for the model (`fitToBudget` cuts only before one). */
const opensTurn = (message: StoredMessage) =>
  message.role === 'user' && toModelMessages([message]).length > 0;

/**
 * The newest messages of a thread that a turn can send the model within `budgetTokens`
 * (`fitToBudget`), oldest first: the thread is read backwards a page at a time, and reading stops
 * at a turn's opening message from which the messages before the newest user message already
 * count more than the budget. `fitToBudget` leaves that message and everything older out in any
 * case, whatever the new turn does to its newest part (append, edit, regenerate), so the model is
 * sent the same messages as from the whole thread, and a turn in a thread of 10,000 messages
 * reads what one of 600 does. Without a budget the whole thread is read.
 */
export async function historyWindow(
  repo: Pick<ChatRepository, 'listMessages' | 'listMessagesNewestFirst'>,
  userId: number,
  threadId: string,
  budgetTokens: number | undefined,
): Promise<StoredMessage[]> {
  if (budgetTokens === undefined) return repo.listMessages(userId, threadId);
  const newestFirst: StoredMessage[] = [];
  let newestUserSeen = false;
  // What the messages older than the newest user message count, from it back to the oldest read.
  let tokens = 0;
  for (let page = FIRST_WINDOW_PAGE; ; page = nextPage(newestFirst.length, tokens, budgetTokens)) {
    const rows = await repo.listMessagesNewestFirst(userId, threadId, page, newestFirst.at(-1));
    for (const message of rows) {
      newestFirst.push(message);
      if (!newestUserSeen) {
        newestUserSeen = message.role === 'user';
        continue;
      }
      tokens += budgetedTokens(toModelMessages([message]), budgetTokens);
      if (tokens > budgetTokens && opensTurn(message)) return newestFirst.reverse();
    }
    if (rows.length < page) return newestFirst.reverse();
  }
}
