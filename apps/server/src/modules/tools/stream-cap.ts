/**
 * Counts a streamed body as the caller reads it and errors the stream once it passes `maxBytes`
 * (which also cancels the upstream): responses that stream (server-sent events) cannot be read in
 * full first, but nothing past the cap is ever handed on. `tooLarge` makes the error (once per
 * response that goes over).
 */
export function capStream(response: Response, maxBytes: number, tooLarge: () => Error): Response {
  if (!response.body) return response;
  if (Number(response.headers.get('content-length') ?? '0') > maxBytes) {
    void response.body.cancel().catch(() => {});
    throw tooLarge();
  }
  let total = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > maxBytes) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
}
