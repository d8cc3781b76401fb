import { RUNTIME_CONFIG_PATH, runtimeConfigSchema, type RuntimeConfig } from '@cadre/contract';

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; problems: string[] };

/**
 * Checks a runtime configuration against the strict schema of spec section 3 and names every bad
 * field, so a misconfigured deployment shows what to fix instead of a blank page.
 */
export function checkRuntimeConfig(value: unknown): RuntimeConfigResult {
  const parsed = runtimeConfigSchema.safeParse(value);
  if (parsed.success) return { ok: true, config: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((k) => prefix + k).join(', ')}`;
    }
    const field = issue.path.join('.') || '(configuration)';
    return `${field}: ${issue.message}`;
  });
  return { ok: false, problems };
}

/** Fetches the runtime configuration the server builds for this origin, then checks it. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfigResult> {
  let response: Response;
  try {
    response = await fetchImpl(RUNTIME_CONFIG_PATH, { headers: { Accept: 'application/json' } });
  } catch (error) {
    return { ok: false, problems: [`could not reach the server: ${(error as Error).message}`] };
  }
  if (!response.ok) {
    return { ok: false, problems: [`the server answered ${response.status} ${response.statusText}`] };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, problems: ['the configuration is not valid JSON'] };
  }
  return checkRuntimeConfig(body);
}
