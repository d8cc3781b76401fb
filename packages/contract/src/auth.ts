import { z } from 'zod';

export const betaSigninSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type BetaSignin = z.infer<typeof betaSigninSchema>;

export const betaSigninResultSchema = z.object({ success: z.literal(true) });

export const copilotLoginSchema = z.object({ copilot_auth_token: z.string() });
export type CopilotLogin = z.infer<typeof copilotLoginSchema>;

/**
 * Body of `POST /api/v1/auth/chainlit-copilot-login`: the token is bound to the user and to
 * `agent_id`, one of the caller's agents (the chat accepts no copilot token without an agent).
 * The body may be absent only so that a request without one gets the same 422 naming `agent_id`.
 */
export const copilotLoginRequestSchema = z
  .strictObject({
    agent_id: z.number().int().min(1).max(2_147_483_647),
  })
  .nullish();
