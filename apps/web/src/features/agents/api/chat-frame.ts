/**
 * Moves the chat frame to another address without a step in the page's history: the page's own
 * address already took that step (back/forward, a bookmark), the frame only follows it.
 */
export function showInFrame(frame: HTMLIFrameElement, url: string) {
  frame.contentWindow?.location.replace(url);
}
