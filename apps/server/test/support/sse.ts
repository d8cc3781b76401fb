/**
 * Reads a UI message stream (SSE) as it arrives, handing each chunk to `onChunk`; resolves when the
 * stream ends. A cut connection rejects, as the fetch body does.
 */
export async function readUiChunks(res: Response, onChunk: (chunk: Record<string, unknown>) => void) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    const events = buffer.split('\n\n');
    buffer = events.pop()!;
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (data && data !== '[DONE]') onChunk(JSON.parse(data) as Record<string, unknown>);
    }
  }
}
