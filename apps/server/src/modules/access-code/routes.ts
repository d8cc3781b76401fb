import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  betaSigninResultSchema,
  betaSigninSchema,
  errorSchema,
  validationErrorSchema,
} from '@cadre/contract';
import type { AppDeps } from '../../deps.ts';
import { createAccessCodeService } from './service.ts';

/** The beta access-code gate (spec section 4): public, rate-limited per client address. */
export const accessCodeRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const accessCodes = await createAccessCodeService(deps);
  app.post(
    '/api/v1/public/beta-user-signin',
    {
      config: { public: true },
      schema: {
        operationId: 'betaUserSignin',
        tags: ['public'],
        summary: 'Checks a beta access code',
        body: betaSigninSchema,
        response: {
          200: betaSigninResultSchema,
          401: errorSchema,
          422: validationErrorSchema,
          429: errorSchema,
        },
      },
    },
    async (request) => accessCodes.signIn(request.body.password, request.ip),
  );
};
