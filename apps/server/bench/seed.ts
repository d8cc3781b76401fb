/**
 * What `npm run bench` sets up in a running Cadre, over its HTTP API only, as people would: accounts
 * made at the built-in identity provider (the access code, sign-up, authorization code + PKCE),
 * agents made through the API, chat sessions opened as the chat frame opens them.
 */
import { chatFrameHeaders, redeemCode, signUp, tokenRequest } from '../test/cluster/http-browser.ts';

export const ACCESS_CODE = 'bench';

/**
 * Signs up `email`; returns an access token for the API and a way to get a new one (they last ten
 * minutes, less than a whole run on a busy machine).
 */
export async function signedUpToken(base: string, email: string) {
  const { code, verifier } = await signUp(base, { email, accessCode: ACCESS_CODE });
  const tokens = await redeemCode(base, code, verifier);
  if (tokens.status !== 200) throw new Error(`token request: ${tokens.status}`);
  let refreshToken = tokens.body.refresh_token!;
  const refresh = async (at = base) => {
    const renewed = await tokenRequest(at, { grant_type: 'refresh_token', refresh_token: refreshToken });
    if (renewed.status !== 200) throw new Error(`token refresh: ${renewed.status}`);
    refreshToken = renewed.body.refresh_token ?? refreshToken;
    return renewed.body.access_token!;
  };
  return { token: tokens.body.access_token!, refresh };
}

export function api(base: string, token: string) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/backend/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/**
 * The list's owner: `agents` agents of `toolsEach` built-in tools each (taken in turn from every
 * built-in service's actions) and an API key that may read them. Returns the token and the key.
 */
export async function seedListOwner(base: string, agents = 20, toolsEach = 5) {
  const { token, refresh } = await signedUpToken(base, 'list@bench.example');
  const call = api(base, token);
  const services = await call<{ id: number }[]>('GET', '/services/');
  const actions: number[] = [];
  for (const service of services)
    for (const action of await call<{ id: number }[]>('GET', `/services/${service.id}/actions`))
      actions.push(action.id);
  for (let i = 0; i < agents; i++) {
    await call('POST', '/agents/', {
      name: `Agent ${i}`,
      description: 'An agent that helps with the inbox and the calendar.',
      guidelines: 'Be brief. Ask before sending anything.',
      tool_ids: Array.from({ length: toolsEach }, (_, t) => actions[(i * toolsEach + t) % actions.length]!),
    });
  }
  const { key } = await call<{ key: string }>('POST', '/api-keys', {
    name: 'bench',
    scopes: ['agents:read'],
  });
  return { token, refresh, apiKey: key };
}

/**
 * `count` people chatting, each with one agent without tools and a chat session for it (the chat
 * limits turns per person and minute: the load is spread over several). The first also has an API
 * key for the OpenAI-compatible API.
 */
export async function seedChatters(base: string, count: number) {
  const sessions: Record<string, string>[] = [];
  let agentId = 0;
  let apiKey = '';
  for (let i = 0; i < count; i++) {
    const { token } = await signedUpToken(base, `chat${i}@bench.example`);
    const call = api(base, token);
    const agent = await call<{ id: number }>('POST', '/agents/', {
      name: 'Bench agent',
      description: 'Answers quickly.',
      guidelines: 'Be brief.',
      tool_ids: [],
    });
    sessions.push(await chatFrameHeaders(base, token, agent.id));
    if (i === 0) {
      agentId = agent.id;
      apiKey = (await call<{ key: string }>('POST', '/api-keys', { name: 'bench', scopes: ['chat'] })).key;
    }
  }
  return { sessions, agentId, apiKey };
}
