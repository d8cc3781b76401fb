import { beforeAll, describe, expect, it } from 'vitest';
import { lintOpenApi } from '../../../scripts/lint-openapi.ts';
import { PUBLIC_ROUTES } from '../src/http/auth.ts';
import { generateOpenApiDocument } from '../src/openapi-document.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, { servers?: { url: string }[] } & Record<string, Operation>>;
}

describe('the OpenAPI document', () => {
  let document: Document;
  beforeAll(async () => {
    document = (await generateOpenApiDocument()) as Document;
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([p, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({
        key: `${m.toUpperCase()} ${(item.servers?.[0]?.url === '/' ? '' : document.servers[0]!.url) + p}`,
        operation: item[m]!,
      })),
    );

  it('passes `redocly lint` with no error (npm run lint:openapi; the configuration is redocly.yaml)', async () => {
    const { stdout } = await lintOpenApi('json');
    // Redocly that did not run leaves no JSON: the parse fails the test.
    const report = JSON.parse(stdout) as {
      problems: { severity: string; ruleId: string; message: string }[];
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('covers the chat and demo routes the web app and the widget call, each with a unique id', () => {
    const keys = operations().map((o) => o.key);
    for (const key of [
      'POST /chainlit/auth/header',
      'POST /chainlit/chat',
      'GET /chainlit/threads',
      'POST /chainlit/fn-results/{callId}',
      'POST /demos/login',
      'POST /demos/chat',
      'POST /backend/openai/v1/chat/completions',
      'POST /backend/openai/v1/responses',
      'POST /backend/mcp/{agent_id}',
    ]) {
      expect(keys).toContain(key);
    }
    const ids = operations().map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('states each operation’s security: none exactly on the public API routes', () => {
    const publicRoutes = new Set<string>(PUBLIC_ROUTES);
    for (const { key, operation } of operations()) {
      const fastifyKey = key.replace(/\{(\w+)\}/g, ':$1');
      if (publicRoutes.has(fastifyKey) || fastifyKey.startsWith('POST /demos/log')) {
        expect(operation.security, key).toEqual([]);
      } else {
        expect(operation.security?.length, key).toBeGreaterThan(0);
      }
    }
  });
});
