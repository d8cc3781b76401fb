import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web app's own client code (apps/web/src), loaded as it is, so a cluster test sends what the
 * browser sends: the generated client as `configureApiClient` sets it up (base URL, bearer token,
 * headers) and the agent form's Save (`draftToBody(draftOf(undefined))` then `saveAgent`, which
 * makes the submission's Idempotency-Key). Loaded by path, typed here by what the test calls: the
 * web app's own types need the DOM, which the server's type check does not include.
 */
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/src');

interface AgentDraft {
  name: string;
  description: string;
}

interface WebModules {
  apiClient: {
    configureApiClient(settings: { baseUrl: string; getAccessToken: () => string | undefined }): unknown;
  };
  logic: {
    draftOf(agent: undefined): AgentDraft & Record<string, unknown>;
    draftToBody(draft: AgentDraft & Record<string, unknown>): object | null;
  };
  /** The generated SDK answers with the body (`responseStyle: 'data'`). */
  agentsApi: { saveAgent(body: object): Promise<{ id: number; name: string }> };
}

const load = async <K extends keyof WebModules>(file: string) =>
  (await import(/* @vite-ignore */ path.join(WEB, file))) as WebModules[K];

/**
 * The web app's client talking to `baseUrl` (the proxy) as `token`'s user. `saveNewAgent` is one
 * press of Save on the new-agent form: one request (the proxy may resend it), or an error thrown as
 * the web app would see it (an `ApiError`, or the fetch's own failure).
 */
export async function webAppClient(baseUrl: string, token: string) {
  const [{ configureApiClient }, { draftOf, draftToBody }, { saveAgent }] = await Promise.all([
    load<'apiClient'>('api/api-client.ts'),
    load<'logic'>('features/agents/agents-logic.ts'),
    load<'agentsApi'>('features/agents/api/agents-api.ts'),
  ]);
  configureApiClient({ baseUrl: `${baseUrl}/backend`, getAccessToken: () => token });
  return {
    saveNewAgent: (name: string, description: string) =>
      saveAgent(draftToBody({ ...draftOf(undefined), name, description })!),
  };
}
