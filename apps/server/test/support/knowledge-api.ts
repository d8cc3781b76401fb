import {
  agentVersionListSchema,
  chatSessionCookieFor,
  knowledgeFileListSchema,
  knowledgeFileSchema,
} from '@cadre/contract';
import { ORIGIN, uiChunks } from './chat-fixtures.ts';
import type { TestApp } from './test-app.ts';
import { multipartBody } from './knowledge-files.ts';

/** The knowledge files API as a person's browser calls it, for tests of what builds on it. */

export const API = '/backend/api/v1';
type Auth = { authorization: string };

/** Uploads one file (in the editor's `batch` when given); the answer as it came. */
export async function uploadFile(
  t: TestApp,
  auth: Auth,
  agentId: number,
  name: string,
  bytes: Uint8Array | string,
  batch?: string,
) {
  const body = await multipartBody([{ field: 'file', name, bytes }]);
  return t.app.inject({
    method: 'POST',
    url: `${API}/agents/${agentId}/files${batch ? `?batch=${batch}` : ''}`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

/** Uploads one file that must be taken: the file as listed. */
export async function addFile(...args: Parameters<typeof uploadFile>) {
  const res = await uploadFile(...args);
  if (res.statusCode !== 201) throw new Error(`upload of ${args[3]}: ${res.statusCode} ${res.body}`);
  return knowledgeFileSchema.parse(res.json());
}

export const filesOf = async (t: TestApp, auth: Auth, agentId: number) =>
  knowledgeFileListSchema.parse(
    (await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/files`, headers: auth })).json(),
  );

export const versionsOf = async (t: TestApp, auth: Auth, agentId: number) =>
  agentVersionListSchema.parse(
    (await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/versions`, headers: auth })).json(),
  );

export async function createAgent(t: TestApp, auth: Auth, name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/agents/`,
    headers: auth,
    payload: { name, description: 'Answers from the files', tool_ids: [] },
  });
  if (res.statusCode !== 201) throw new Error(`agent ${name}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: number }>().id;
}

/** One chat turn with the user's agent (the offline model unless configured): the answer's text. */
export async function askAgent(t: TestApp, auth: Auth, agentId: number, text: string) {
  const session = await t.app.inject({
    method: 'POST',
    url: '/chainlit/auth/header',
    headers: { ...auth, 'x-agent-id': String(agentId) },
  });
  const name = chatSessionCookieFor(agentId);
  const cookie = session.cookies.find((c) => c.name === name)!;
  const turn = await t.app.inject({
    method: 'POST',
    url: '/chainlit/chat',
    headers: {
      cookie: `${name}=${cookie.value}`,
      origin: ORIGIN,
      'x-requested-with': 'cadre-chat',
      'x-agent-id': String(agentId),
    },
    payload: { text },
  });
  if (turn.statusCode !== 200) throw new Error(`chat turn: ${turn.statusCode} ${turn.body}`);
  return uiChunks(turn.body);
}
