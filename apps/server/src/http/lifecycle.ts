import type { FastifyInstance } from 'fastify';
import type { Lifecycle } from '../deps.ts';

/**
 * The process's shutdown state. `main.ts` starts draining on SIGTERM; from then on readiness
 * answers 503 (so a load balancer stops routing here) and every response asks the client to close
 * its connection, so no keep-alive request races the server closing its sockets.
 */
export function createLifecycle(): Lifecycle & { beginDraining(): Promise<void> } {
  let draining = false;
  const drainHooks: (() => void | Promise<void>)[] = [];
  return {
    instanceId: crypto.randomUUID(),
    get draining() {
      return draining;
    },
    onDrain(hook) {
      drainHooks.push(hook);
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
}
