import { createHash } from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jwtVerify, type JWTVerifyGetKey } from 'jose';
import {
  backchannelLogoutErrorSchema,
  backchannelLogoutRequestSchema,
  backchannelLogoutResultSchema,
} from '@cadre/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { ACCESS_TOKEN_ALGORITHMS } from '../../http/auth.ts';
import { errorAnswer } from '../../http/errors.ts';
import { operations } from '../../http/openapi.ts';
import { endChatSessionsOf } from '../chat/index.ts';
import type { LogoutUsers } from './ports.ts';

const op = operations('auth');

export const BACKCHANNEL_LOGOUT_PATH = '/api/v1/auth/backchannel-logout';
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const CLOCK_TOLERANCE_SECONDS = 30;
/** A logout token is sent as the session ends: one issued longer ago than this is refused. */
const MAX_AGE_SECONDS = 5 * 60;
/** `typ` values a logout token may have (its own, or the generic one Auth0 and others send). */
const LOGOUT_TOKEN_TYPES = new Set(['logout+jwt', 'application/logout+jwt', 'jwt']);

class InvalidLogoutToken extends Error {}

/** What a verified logout token ends: one provider session (`sid`) and/or one account (`sub`). */
export interface LogoutToken {
  iss: string;
  jti: string;
  iat: number;
  sid?: string;
  sub?: string;
}

const optionalString = (value: unknown, claim: string) => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value || value.length > 255)
    throw new InvalidLogoutToken(`${claim} is not a string of at most 255 characters`);
  return value;
};

/**
 * Validates a logout token as OpenID Connect Back-Channel Logout 1.0 section 2.6 asks: signed by
 * the issuer with one of its keys (the keys access tokens are verified with), for our client,
 * issued within the last minutes and not in the future, not expired, with a `jti`, the
 * back-channel logout event, a `sid` or a `sub`, and no `nonce` (which only an ID token has).
 */
export async function verifyLogoutToken(
  token: string,
  keys: JWTVerifyGetKey,
  expected: { issuer: string; clientId: string },
): Promise<LogoutToken> {
  const { payload, protectedHeader } = await jwtVerify(token, keys, {
    issuer: expected.issuer,
    audience: expected.clientId,
    algorithms: ACCESS_TOKEN_ALGORITHMS,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    maxTokenAge: MAX_AGE_SECONDS,
    requiredClaims: ['iss', 'aud', 'iat', 'jti'],
  });
  const typ = protectedHeader.typ?.toLowerCase();
  if (typ !== undefined && !LOGOUT_TOKEN_TYPES.has(typ))
    throw new InvalidLogoutToken(`token type ${typ} is not a logout token`);
  const iat = payload.iat!;
  if (iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw new InvalidLogoutToken('issued in the future');
  const events = payload.events;
  if (typeof events !== 'object' || events === null || Array.isArray(events))
    throw new InvalidLogoutToken('events is missing');
  const event = (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT];
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    throw new InvalidLogoutToken('events has no back-channel logout event');
  if ('nonce' in payload) throw new InvalidLogoutToken('a logout token has no nonce');
  const jti = optionalString(payload.jti, 'jti')!;
  const sid = optionalString(payload.sid, 'sid');
  const sub = optionalString(payload.sub, 'sub');
  if (sid === undefined && sub === undefined) throw new InvalidLogoutToken('neither sid nor sub');
  return { iss: payload.iss!, jti, iat, ...(sid && { sid }), ...(sub && { sub }) };
}

/**
 * Records a logout token's `jti` until the token could no longer be accepted anyway; false when
 * it was already recorded (a replay), on this instance or any other sharing the database.
 */
async function firstUse(db: Pick<Db, 'kysely'>, token: LogoutToken): Promise<boolean> {
  const now = new Date();
  await db.kysely.deleteFrom('logout_tokens').where('expires_at', '<=', now.toISOString()).execute();
  const key = createHash('sha256').update(`${token.iss}\n${token.jti}`).digest('hex');
  const until = (token.iat + MAX_AGE_SECONDS + 2 * CLOCK_TOLERANCE_SECONDS) * 1000;
  const inserted = await db.kysely
    .insertInto('logout_tokens')
    .values({ jti: key, expires_at: new Date(Math.max(until, now.getTime())).toISOString() })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returning('jti')
    .execute();
  return inserted.length === 1;
}

/**
 * OpenID Connect Back-Channel Logout 1.0 for an external issuer (Auth0, Keycloak, any OIDC
 * provider): the issuer posts a signed logout token here when a user's session there ends, and
 * the chat sessions opened under that session (`sid`), or every chat session of the account
 * (`sub` alone), end, with the account's copilot tokens (A4, docs/security.md). Public: the
 * token's signature is the credential. No cookies are read or set.
 */
export const backchannelLogoutRoutes: FastifyPluginAsyncZod<{
  config: Config;
  db: Db;
  users: LogoutUsers;
  keys: JWTVerifyGetKey;
}> = async (app, { config, db, users, keys }) => {
  await app.register(formBody);
  const refuse = (description: string) => ({
    error: 'invalid_request' as const,
    error_description: description,
    code: 'bad_request' as const,
  });
  // A body the parsers or the schema refuse (JSON that is not JSON, a media type that is not a
  // form, no `logout_token`) is the issuer's bad request: 400 in the spec's words and error shape,
  // not the API's 422 `{detail}`, which would not match the declared 400 body and end as a 500.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, headers, body } = errorAnswer(error, request);
    reply.header('cache-control', 'no-store');
    if (status >= 500) return reply.code(status).headers(headers).send(body);
    const description =
      typeof body.detail === 'string'
        ? body.detail
        : body.detail.map((issue) => `${issue.loc.slice(1).join('.') || 'body'}: ${issue.msg}`).join('; ');
    return reply.code(400).headers(headers).send(refuse(description));
  });
  app.post(
    BACKCHANNEL_LOGOUT_PATH,
    {
      config: { public: true },
      ...op('backchannelLogout', 'Ends the chat sessions of a session that ended at the identity provider', {
        description:
          "OpenID Connect Back-Channel Logout 1.0: the issuer posts `logout_token` (form-encoded) when a session ends there. A valid token ends the chat sessions opened under its `sid`, or every chat session of its `sub`, and that account's copilot tokens. Register this URL as the client's back-channel logout URI.",
        consumes: ['application/x-www-form-urlencoded'],
        body: backchannelLogoutRequestSchema,
        response: { 200: backchannelLogoutResultSchema, 400: backchannelLogoutErrorSchema },
      }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const token = request.body.logout_token;
      if (!token) return reply.code(400).send(refuse('logout_token is required'));
      let verified: LogoutToken;
      try {
        verified = await verifyLogoutToken(token, keys, {
          issuer: config.auth.issuer,
          clientId: config.auth.clientId,
        });
      } catch (err) {
        // A security event (ASVS 16.3): the reason, never the token.
        const reason = err instanceof Error ? err.message : String(err);
        request.log.info({ reason }, 'back-channel logout token refused');
        return reply.code(400).send(refuse('logout_token is not valid'));
      }
      const user = verified.sub
        ? await users.find({ issuer: verified.iss, subject: verified.sub })
        : undefined;
      // The `jti` is spent in the transaction that ends the sessions: a logout that fails here
      // leaves it unspent, so the issuer's retry of the same token still ends them.
      const first = await db.kysely.transaction().execute(async (trx) => {
        if (!(await firstUse({ kysely: trx }, verified))) return false;
        // A `sub` we have no user for has nothing here to end.
        if (verified.sid !== undefined && (user || verified.sub === undefined)) {
          await endChatSessionsOf({ kysely: trx }, { sid: verified.sid, userId: user?.id });
        } else if (user) {
          await endChatSessionsOf({ kysely: trx }, { userId: user.id });
        }
        return true;
      });
      if (!first) {
        request.log.info({ reason: 'jti seen before' }, 'back-channel logout token refused');
        return reply.code(400).send(refuse('logout_token was already used'));
      }
      request.log.info({ userId: user?.id, bySid: verified.sid !== undefined }, 'back-channel logout');
      return {};
    },
  );
};
