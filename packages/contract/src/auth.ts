import { z } from 'zod';

export const betaSigninSchema = z.strictObject({
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type BetaSignin = z.infer<typeof betaSigninSchema>;

export const betaSigninResultSchema = z.object({ success: z.literal(true) });

export const copilotLoginSchema = z.object({ copilot_auth_token: z.string() });
export type CopilotLogin = z.infer<typeof copilotLoginSchema>;
