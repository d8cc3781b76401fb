// Generates the API clients from the server's OpenAPI document: the web app's (apps/web/src/client,
// the API under /backend) and the chat frame's (apps/chat/src/client, the chat routes).
// `npm run generate:client` writes both; the staleness test generates each into a temporary folder
// and compares. Both go through `generateClient`, so they cannot disagree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type UserConfig } from '@hey-api/openapi-ts';
import { generateOpenApiDocument } from '../apps/server/src/openapi-document.ts';

interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, { servers?: unknown }>;
}

/** The chat's mount; the demos mount the same routes again at `/demos`. */
const CHAT_MOUNT = '/chainlit';

/**
 * The web app's client calls the API under `/backend` only: the chat and demo routes (paths with a
 * server of their own) belong to the chat frame's client.
 */
function apiOnly(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([, item]) => !item.servers));
  return { ...document, paths };
}

/**
 * The chat frame's client: the `/chainlit` routes, with paths relative to the mount. The frame
 * passes its mount as the base URL (`/chainlit`, `/demos`, or the chat service's address on
 * another origin for the copilot), so one client serves every mount.
 */
function chatOnly(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([route]) => route.startsWith(`${CHAT_MOUNT}/`))
      .map(([route, { servers: _mountServer, ...item }]) => [route.slice(CHAT_MOUNT.length), item]),
  );
  return { ...document, servers: [{ url: CHAT_MOUNT }], paths };
}

const generatedFolder = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Each client: where it is written, which part of the document it covers, and its plugins. */
export const CLIENTS = {
  web: {
    dir: generatedFolder('../apps/web/src/client'),
    select: apiOnly,
    plugins: [
      { name: '@hey-api/client-fetch', throwOnError: true, baseUrl: false },
      '@hey-api/typescript',
      { name: '@hey-api/sdk', responseStyle: 'data' },
      '@tanstack/react-query',
    ],
  },
  chat: {
    dir: generatedFolder('../apps/chat/src/client'),
    select: chatOnly,
    // The frame sends its own auth headers (lib/endpoint.ts): the SDK need not describe the schemes.
    plugins: [
      { name: '@hey-api/client-fetch', throwOnError: true, baseUrl: false },
      '@hey-api/typescript',
      { name: '@hey-api/sdk', responseStyle: 'data', auth: false },
    ],
  },
} satisfies Record<
  string,
  { dir: string; select: (d: OpenApiDocument) => OpenApiDocument; plugins: unknown }
>;

export type ClientName = keyof typeof CLIENTS;

// Building the server for its document takes seconds: one build serves every client.
let document: Promise<OpenApiDocument> | undefined;
const openApiDocument = () => (document ??= generateOpenApiDocument() as Promise<OpenApiDocument>);

export async function generateClient(name: ClientName, outputDir: string = CLIENTS[name].dir) {
  const { select, plugins } = CLIENTS[name];
  await createClient({
    input: select(await openApiDocument()) as unknown as Record<string, unknown>,
    output: { path: outputDir },
    logs: { level: 'silent' },
    plugins: plugins as UserConfig['plugins'],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const name of Object.keys(CLIENTS) as ClientName[]) {
    await generateClient(name);
    console.log(`${name} client written to ${path.relative(process.cwd(), CLIENTS[name].dir)}`);
  }
}
