import type { ChatFrameNotice } from '@cadre/contract';

/**
 * The frame <-> parent channel (H3). The frame never acts on commands from postMessage: the only
 * message it understands is a same-origin parent asking which thread is shown, and it answers with
 * the thread id (never a token) to our own origin only. That message, exactly (no other field), is
 * checked by hand: a schema library here would be on the frame's way to its first paint.
 */
const isThreadQuestion = (data: unknown) =>
  typeof data === 'object' &&
  data !== null &&
  Object.keys(data).length === 1 &&
  (data as { type?: unknown }).type === 'cadre-chat:get-thread';

export function createParentMessageListener(options: {
  /** Our exact origin (location.origin). */
  origin: string;
  /** The window allowed to talk to us (window.parent). */
  parent: MessageEventSource | null;
  currentThreadId: () => string | null;
  reply: (notice: ChatFrameNotice) => void;
}) {
  return (event: MessageEvent) => {
    if (event.origin !== options.origin) return;
    if (!options.parent || event.source !== options.parent) return;
    if (!isThreadQuestion(event.data)) return;
    const threadId = options.currentThreadId();
    if (threadId) options.reply({ type: 'cadre-chat:thread', threadId, history: 'replace' });
  };
}

/** Tells the embedding page (same origin only) which thread is shown. */
export function notifyParent(notice: ChatFrameNotice) {
  if (window.parent === window) return;
  window.parent.postMessage(notice, window.location.origin);
}
