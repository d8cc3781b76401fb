import { normaliseOrigin } from './agents.ts';
import { z } from 'zod';

export const betaSigninSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type BetaSignin = z.infer<typeof betaSigninSchema>;

export const betaSigninResultSchema = z.object({ success: z.literal(true) });

export const copilotLoginSchema = z.object({ copilot_auth_token: z.string() });

/**
 * The 404 of a chat sign-in (`/chainlit/auth/header`) or a copilot token (`POST
 * /api/v1/auth/chainlit-copilot-login`) for an agent that is gone or someone else's: it says
 * what is wrong rather than blaming the sign-in, and reads the same in both cases.
 */
export const NO_SUCH_AGENT = 'This agent does not exist or is not yours';
export type CopilotLogin = z.infer<typeof copilotLoginSchema>;

/**
 * Body of `POST /api/v1/auth/chainlit-copilot-login`: the token is bound to the user and to
 * `agent_id`, one of the caller's agents (the chat accepts no copilot token without an agent).
 * The body may be absent only so that a request without one gets the same 422 naming `agent_id`.
 */
export const copilotLoginRequestSchema = z
  .strictObject({
    agent_id: z.number().int().min(1).max(2_147_483_647),
    /**
     * The page origin the token will be used from: one of the agent's `embed_origins` (required
     * with an API key when the agent lists any). The chat then answers the token only to requests
     * from that origin (its `Origin` header).
     */
    origin: z
      .string()
      .max(300, 'must be at most 300 characters')
      .refine((value) => normaliseOrigin(value) !== undefined, 'must be an origin like https://example.com')
      .transform((value) => normaliseOrigin(value)!)
      .optional(),
    /**
     * The host site's visitor the token speaks for (required with an API key): an opaque id, so
     * each visitor has their own threads, and the name the agent is told it talks with.
     */
    end_user: z
      .strictObject({
        id: z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters'),
        display_name: z.string().trim().max(200, 'must be at most 200 characters').optional(),
      })
      .optional(),
  })
  .nullish();

/**
 * Body of `POST /api/v1/auth/backchannel-logout` (OpenID Connect Back-Channel Logout 1.0), sent
 * form-encoded by the identity provider: the signed logout token.
 */
export const backchannelLogoutRequestSchema = z.object({ logout_token: z.string().max(16_384) });
export const backchannelLogoutResultSchema = z.object({});
/**
 * The spec's error answer (400) for a logout token that is missing, invalid or replayed, with the
 * API's error code (errors.ts) beside its fields.
 */
export const backchannelLogoutErrorSchema = z.object({
  error: z.literal('invalid_request'),
  error_description: z.string(),
  code: z.literal('bad_request'),
});
