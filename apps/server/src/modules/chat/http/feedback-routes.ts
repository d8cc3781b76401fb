import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatFeedbackOutSchema, chatFeedbackSchema } from '@cadre/contract';
import type { ChatService } from '../service.ts';
import { principalOf } from './session-auth.ts';
import { chatOperation } from './chat-operation.ts';

const params = z.object({ messageId: z.string().max(100) });

/**
 * `PUT /messages/:messageId/feedback {rating, comment?}` rates one of the caller's answers (200 with
 * the rating; again replaces it); `DELETE` takes it back (204). Another person's message, a user
 * message or an unknown id answer 404.
 */
export const feedbackRoutes: FastifyPluginAsyncZod<{ service: ChatService }> = async (app, { service }) => {
  app.put(
    '/messages/:messageId/feedback',
    chatOperation('chatRateMessage', 'Rates an answer (thumbs up or down, with an optional comment)', {
      params,
      body: chatFeedbackSchema,
      response: { 200: chatFeedbackOutSchema },
    }),
    async (request) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      const { rating, comment } = request.body;
      return service.rateMessage(userId, agentId, endUser, request.params.messageId, rating, comment ?? null);
    },
  );

  app.delete(
    '/messages/:messageId/feedback',
    chatOperation('chatClearRating', 'Removes the rating of an answer', {
      params,
      response: { 204: z.null().describe('Removed') },
    }),
    async (request, reply) => {
      const { userId, agentId, endUser = '' } = principalOf(request);
      await service.clearRating(userId, agentId, endUser, request.params.messageId);
      return reply.code(204).send(null);
    },
  );
};
