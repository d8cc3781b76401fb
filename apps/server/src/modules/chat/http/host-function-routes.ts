import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '@cadre/contract';
import { HttpError } from '../../../http/errors.ts';
import type { HostFunctionBridge } from '../host-functions.ts';

const resultBody = z.strictObject({ result: z.unknown() });

/**
 * `POST /fn-results/:callId {result}` — registered inside the chat plugin (so its preHandler
 * authenticates the copilot token first); `principalOf` is the plugin's request -> principal lookup.
 */
export const hostFunctionRoutes: FastifyPluginAsyncZod<{
  bridge: HostFunctionBridge;
  principalOf: (request: FastifyRequest) => { userId: number; agentId: number };
}> = async (app, { bridge, principalOf }) => {
  app.post(
    '/fn-results/:callId',
    {
      config: { public: true },
      bodyLimit: 256 * 1024,
      schema: {
        operationId: 'chatFunctionResult',
        tags: ['chat'],
        summary: "Returns a host page function's result to the copilot's waiting run",
        params: z.object({ callId: z.string().max(100) }),
        body: resultBody,
        response: {
          204: z.null().describe('Delivered'),
          401: errorSchema,
          404: errorSchema,
          410: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const settled = await bridge.settle(principalOf(request), request.params.callId, request.body.result);
      if (settled === 'expired')
        throw new HttpError('expired', 'This function call has expired; the agent stopped waiting');
      if (settled === 'not_found') throw new HttpError('not_found', 'Function call not found');
      return reply.code(204).send(null);
    },
  );
};
