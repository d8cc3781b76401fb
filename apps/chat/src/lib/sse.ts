import type { UIMessageChunk } from 'ai';

/**
 * Reads an AI SDK UI message stream (server-sent events: `data: <json>` lines, ending with
 * `data: [DONE]`) into chunks. Used for approval continuations, which are not `useChat` requests.
 */
export function parseUiMessageStream(body: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> {
  let buffer = '';
  const decoder = new TextDecoder();
  const flushEvents = (controller: TransformStreamDefaultController<UIMessageChunk>, final: boolean) => {
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = final ? '' : (events.pop() ?? '');
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data || data === '[DONE]') continue;
      controller.enqueue(JSON.parse(data) as UIMessageChunk);
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, UIMessageChunk>({
      transform(bytes, controller) {
        buffer += decoder.decode(bytes, { stream: true });
        flushEvents(controller, false);
      },
      flush(controller) {
        buffer += decoder.decode();
        flushEvents(controller, true);
      },
    }),
  );
}
