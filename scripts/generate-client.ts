// Generates the web app's API client (apps/web/src/client) from the server's OpenAPI document.
// `npm run generate:client` writes it; the staleness test generates into a temporary folder and
// compares. Both go through `generateClient`, so they cannot disagree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { generateOpenApiDocument } from '../apps/server/src/openapi-document.ts';

export const CLIENT_DIR = fileURLToPath(new URL('../apps/web/src/client', import.meta.url));

export async function generateClient(outputDir: string = CLIENT_DIR) {
  const spec = await generateOpenApiDocument();
  await createClient({
    input: spec as Record<string, unknown>,
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
