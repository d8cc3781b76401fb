import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from '../kernel.ts';

/**
 * The process's shutdown state. `start.ts` starts draining on SIGTERM; from then on readiness
 * answers 503 (so a load balancer stops routing here) and every response asks the client to close
 * its connection, so no keep-alive request races the server closing its sockets. It also counts
 * the unhandled rejections `start.ts` logs.
 */
export function createLifecycle(): Lifecycle & { beginDraining(): Promise<void> } {
  let draining = false;
  let unhandledRejections = 0;
  const drainHooks: (() => void | Promise<void>)[] = [];
  return {
    instanceId: crypto.randomUUID(),
    get draining() {
      return draining;
    },
    onDrain(hook) {
      drainHooks.push(hook);
    },
    get unhandledRejections() {
      return unhandledRejections;
    },
    countUnhandledRejection() {
      unhandledRejections += 1;
      return unhandledRejections;
    },
    async beginDraining() {
      if (draining) return;
      draining = true;
      await Promise.allSettled(drainHooks.map((hook) => hook()));
    },
  };
}

export function registerLifecycle(app: FastifyInstance, lifecycle: Lifecycle) {
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close');
  });
  closeUnusedConnectionsOnClose(app);
}

/**
 * Node's server.close() (and Fastify's forceCloseConnections: 'idle') closes kept-alive sockets
 * between requests, but not one that was opened and never carried a request: a browser's
 * pre-connect, or a client's pooled socket whose request was aborted before it was written. Such a
 * socket would hold the close until HTTP_IDLE_TIMEOUT_MS. On close, every socket with no request
 * in flight is ended; one with a request in flight is left to finish it.
 */
function closeUnusedConnectionsOnClose(app: FastifyInstance) {
  const requestsInFlight = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    requestsInFlight.set(socket, 0);
    socket.once('close', () => requestsInFlight.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    requestsInFlight.set(socket, (requestsInFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      if (requestsInFlight.has(socket)) requestsInFlight.set(socket, requestsInFlight.get(socket)! - 1);
    });
  });
  app.addHook('preClose', async () => {
    for (const [socket, inFlight] of requestsInFlight) if (inFlight === 0) socket.destroy();
  });
}
