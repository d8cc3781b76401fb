import { z } from 'zod';

export const betaSigninSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type BetaSignin = z.infer<typeof betaSigninSchema>;

export const betaSigninResultSchema = z.object({ success: z.literal(true) });

export const copilotLoginSchema = z.object({ copilot_auth_token: z.string() });
export type CopilotLogin = z.infer<typeof copilotLoginSchema>;

/**
 * Optional body of `POST /api/v1/auth/chainlit-copilot-login`: with `agent_id`, the token is bound
 * to that agent as well (it must be one of the caller's agents). The spec's client sends no body.
 */
export const copilotLoginRequestSchema = z
  .strictObject({
    agent_id: z.number().int().min(1).max(2_147_483_647),
  })
  .nullish();
