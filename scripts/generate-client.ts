// Generates the web app's API client (apps/web/src/client) from the server's OpenAPI document.
// `npm run generate:client` writes it; the staleness test generates into a temporary folder and
// compares. Both go through `generateClient`, so they cannot disagree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { generateOpenApiDocument } from '../apps/server/src/openapi-document.ts';

export const CLIENT_DIR = fileURLToPath(new URL('../apps/web/src/client', import.meta.url));

/**
 * The web app's client calls the API under `/backend` only: the chat and demo routes (paths with a
 * server of their own) belong to the chat frame, which speaks the AI SDK's stream protocol itself.
 */
function apiOnly(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([, item]) => !item.servers));
  return { ...document, paths };
}

interface OpenApiDocument {
  paths: Record<string, { servers?: unknown }>;
}

export async function generateClient(outputDir: string = CLIENT_DIR) {
  const spec = apiOnly((await generateOpenApiDocument()) as OpenApiDocument);
  await createClient({
    input: spec as unknown as Record<string, unknown>,
    output: { path: outputDir },
    logs: { level: 'silent' },
    plugins: [
      { name: '@hey-api/client-fetch', throwOnError: true, baseUrl: false },
      '@hey-api/typescript',
      { name: '@hey-api/sdk', responseStyle: 'data' },
      '@tanstack/react-query',
    ],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await generateClient();
  console.log(`API client written to ${path.relative(process.cwd(), CLIENT_DIR)}`);
}
