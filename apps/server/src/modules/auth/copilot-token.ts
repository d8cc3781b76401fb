import crypto from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config.ts';
import { loadOrCreateKeyFile } from '../../security/vault.ts';

/**
 * The chat frame's copilot token (docs/security.md, "Copilot token"): HS256, 15 minutes, subject
 * = the Cadre user id, audience `cadre-chat`. The key is derived with HKDF from the vault key
 * (SECRETS_KEY or `<data>/secrets.key`), so every instance sharing that key accepts the token and
 * there is no second key file to manage. The API never accepts it: access tokens must be
 * asymmetrically signed by the identity provider.
 */
export const COPILOT_AUDIENCE = 'cadre-chat';
export const COPILOT_ISSUER = 'urn:cadre:api';
export const COPILOT_TOKEN_TTL_SECONDS = 15 * 60;

const keys = new WeakMap<Config, Uint8Array>();

export function copilotTokenKey(config: Config): Uint8Array {
  let key = keys.get(config);
  if (!key) {
    const secret = config.secretsKey ?? loadOrCreateKeyFile(config.dataDir);
    key = new Uint8Array(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), 'cadre/copilot-token/v1', 32));
    keys.set(config, key);
  }
  return key;
}

/** A host site's visitor: an opaque id from the host's backend and the name to show. */
export interface CopilotEndUser {
  id: string;
  displayName?: string;
}

/** What a copilot token may be bound to besides its agent (docs/security.md, "Embedding"). */
export interface CopilotBinding {
  /** The only page origin the chat answers the token for. */
  origin?: string;
  /** The visitor whose threads the token reaches (not the owner's own). */
  endUser?: CopilotEndUser;
}

/**
 * `agentId`, when given, binds the token to that agent too (the caller checked ownership); a
 * binding narrows it further to one page origin and one end user.
 */
export async function issueCopilotToken(
  config: Config,
  userId: number,
  agentId?: number,
  binding: CopilotBinding = {},
): Promise<string> {
  const claims: Record<string, unknown> = agentId === undefined ? {} : { agent_id: agentId };
  if (binding.origin !== undefined) claims.origin = binding.origin;
  if (binding.endUser) {
    claims.end_user = binding.endUser.id;
    if (binding.endUser.displayName) claims.end_user_name = binding.endUser.displayName;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(COPILOT_ISSUER)
    .setAudience(COPILOT_AUDIENCE)
    .setSubject(String(userId))
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime(`${COPILOT_TOKEN_TTL_SECONDS}s`)
    .sign(copilotTokenKey(config));
}

/** For the chat module: the user id the token was issued to; throws on any invalid token. */
export async function verifyCopilotToken(
  config: Config,
  token: string,
): Promise<{ userId: number; agentId?: number; issuedAt: number } & CopilotBinding> {
  const { payload } = await jwtVerify(token, copilotTokenKey(config), {
    algorithms: ['HS256'],
    issuer: COPILOT_ISSUER,
    audience: COPILOT_AUDIENCE,
    requiredClaims: ['sub', 'exp', 'iat'],
    clockTolerance: 5,
  });
  const userId = Number(payload.sub);
  if (!Number.isSafeInteger(userId) || userId < 1) throw new Error('copilot token has no user id');
  const issuedAt = payload.iat! * 1000;
  const binding = bindingOf(payload);
  const agentId = payload.agent_id;
  if (agentId === undefined) return { userId, issuedAt, ...binding };
  if (typeof agentId !== 'number' || !Number.isSafeInteger(agentId) || agentId < 1) {
    throw new Error('copilot token has a malformed agent id');
  }
  return { userId, agentId, issuedAt, ...binding };
}

function bindingOf(payload: Record<string, unknown>): CopilotBinding {
  const { origin, end_user: id, end_user_name: displayName } = payload;
  const binding: CopilotBinding = {};
  if (origin !== undefined) {
    if (typeof origin !== 'string') throw new Error('copilot token has a malformed origin');
    binding.origin = origin;
  }
  if (id !== undefined) {
    if (typeof id !== 'string' || !id) throw new Error('copilot token has a malformed end user');
    binding.endUser = typeof displayName === 'string' ? { id, displayName } : { id };
  }
  return binding;
}

/**
 * The shape the chat module's `verifyCopilotToken` option takes: null unless the token is valid
 * and bound to an agent (the chat module then checks the user still owns that agent).
 */
export const copilotTokenVerifier =
  (config: Config) =>
  async (
    token: string,
  ): Promise<({ userId: number; agentId: number; issuedAt: number } & CopilotBinding) | null> => {
    try {
      const { agentId, ...rest } = await verifyCopilotToken(config, token);
      return agentId === undefined ? null : { agentId, ...rest };
    } catch {
      return null;
    }
  };
