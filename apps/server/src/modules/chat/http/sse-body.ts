import { Readable } from 'node:stream';
import type { UIMessageChunk } from 'ai';

/**
 * A UI message stream as the response body, in the AI SDK's wire format (`data: <chunk JSON>` per
 * chunk, `data: [DONE]` at the end, as `createUIMessageStreamResponse` writes it), read straight
 * into one Node stream: no SSE and text-encoding web streams and no web-to-Node conversion between
 * the run and the socket. The chunks written in one tick (a model's burst of tokens, a step's end
 * and the next one's start) go out as one write, not one system call each: they are sent once the
 * tick's promise jobs have run (`process.nextTick`). Destroying the body (the client went away)
 * cancels the stream, which ends the run.
 */
export function sseBody(stream: ReadableStream<UIMessageChunk>): Readable {
  const reader = stream.getReader();
  let pending = '';
  let flushing = false;
  const body = new Readable({
    read() {},
    destroy(error, callback) {
      reader.cancel(error ?? undefined).catch(() => {});
      callback(error);
    },
  });
  const flush = () => {
    flushing = false;
    if (pending && !body.destroyed) body.push(pending);
    pending = '';
  };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pending += `data: ${JSON.stringify(value)}\n\n`;
        if (!flushing) {
          flushing = true;
          process.nextTick(flush);
        }
      }
      pending += 'data: [DONE]\n\n';
      flush();
      if (!body.destroyed) body.push(null);
    } catch (error) {
      body.destroy(error as Error);
    }
  })();
  return body;
}
