import type { FastifyReply } from 'fastify';

/**
 * Aborts when the client goes away before its answer is complete: a chat turn or an API call that
 * nobody reads any more stops its run (the model call and any running tool).
 */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
