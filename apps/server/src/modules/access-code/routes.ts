import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  betaSigninResultSchema,
  betaSigninSchema,
  errorSchema,
  validationErrorSchema,
} from '@cadre/contract';
import type { AccessGate } from './gate.ts';
import { HttpError } from '../../http/errors.ts';
import { operations } from '../../http/openapi.ts';

const op = operations('public');

/**
 * The beta access-code gate (spec section 4): public, rate-limited per client address. A correct
 * code answers `{success: true}` and sets the proof cookie the API and the provider's sign-up ask for.
 */
export const accessCodeRoutes: FastifyPluginAsyncZod<{ gate: AccessGate }> = async (app, { gate }) => {
  app.post(
    '/api/v1/public/beta-user-signin',
    {
      config: { public: true },
      ...op('betaUserSignin', 'Checks a beta access code', {
        description:
          'A correct code sets `cadre_beta`, an httpOnly cookie holding a signed proof valid for an hour: sign-up at the built-in provider needs it, and the API admits a user who presents it.',
        body: betaSigninSchema,
        response: {
          200: betaSigninResultSchema,
          401: errorSchema,
          422: validationErrorSchema,
          429: errorSchema,
        },
      }),
    },
    async (request, reply) => {
      const proof = await gate.redeem(request.body.password, request.ip);
      if (!proof) throw new HttpError('unauthorized', 'Incorrect password');
      reply.header('set-cookie', proof);
      return { success: true as const };
    },
  );
};
