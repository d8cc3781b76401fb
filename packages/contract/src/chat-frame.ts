import { z } from 'zod';

// The chat frame's side of the web app: its address and what it tells the page it is framed in.

/**
 * The chat frame's address in the web app: `?agent=ID` names the agent its requests speak for,
 * `&thread=ID` the conversation it opens (without it, a new chat).
 */
export function chatFrameUrl(chainlitUrl: string, agentId: number, threadId?: string): string {
  const params = new URLSearchParams({ agent: String(agentId) });
  if (threadId) params.set('thread', threadId);
  return `${chainlitUrl.replace(/\/+$/, '')}/?${params}`;
}

/**
 * What the frame tells its same-origin parent page: the conversation it shows (null: a new chat,
 * not saved yet), and whether that is a new step in the page's history ('push': the person picked
 * it) or the same step ('replace': the first save of a new chat, or what the frame opened with).
 * The parent puts it in its URL; it never carries a token.
 */
export const chatFrameNoticeSchema = z.strictObject({
  type: z.literal('cadre-chat:thread'),
  threadId: z.string().max(200).nullable(),
  history: z.enum(['push', 'replace']),
});
export type ChatFrameNotice = z.infer<typeof chatFrameNoticeSchema>;
