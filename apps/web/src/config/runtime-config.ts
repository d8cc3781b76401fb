import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '@cadre/contract';

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; problems: string[] };

/** What a field must hold; a URL is checked as the browser parses it (after trimming spaces). */
type FieldKind = 'string' | 'non-empty string' | 'number' | 'boolean' | 'URL' | 'URL or empty';
type Shape = { [field: string]: FieldKind | Shape };

const runtimeConfigShape = {
  analyticsTagId: 'string',
  heatmapTracking: { siteId: 'number', version: 'number' },
  isProduction: 'boolean',
  isDevelopment: 'boolean',
  disableAuth0: 'boolean',
  chainlitUrl: 'URL',
  chainlitDemosUrl: 'URL',
  apiUrl: 'URL',
  auth0Domain: 'URL',
  auth0ClientId: 'non-empty string',
  auth0RedirectUri: 'URL',
  auth0Audience: 'non-empty string',
  auth0LogoutRedirect: 'URL',
  feedbackUrl: 'URL or empty',
} satisfies { [K in keyof RuntimeConfig]: RuntimeConfig[K] extends object ? Shape : FieldKind };

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problem with `value` for a field of `kind`, or the value to keep (a URL trimmed, as Zod did). */
function checkField(kind: FieldKind, value: unknown): { problem: string } | { value: unknown } {
  const expected = kind === 'number' || kind === 'boolean' ? kind : 'string';
  if (typeof value !== expected || (kind === 'number' && !Number.isFinite(value))) {
    return { problem: `expected ${expected}, received ${kindOf(value)}` };
  }
  if (kind === 'non-empty string' && value === '') return { problem: 'must not be empty' };
  if (kind === 'URL' || (kind === 'URL or empty' && value !== '')) {
    const trimmed = (value as string).trim();
    if (!URL.canParse(trimmed))
      return { problem: `not a URL${kind === 'URL or empty' ? ' (nor empty)' : ''}` };
    return { value: trimmed };
  }
  return { value };
}

/** Checks `value` against `shape`, adding every problem to `problems`; returns the checked copy. */
function checkObject(shape: Shape, value: Record<string, unknown>, path: string, problems: string[]) {
  const checked: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(shape)) {
    const name = path + field;
    const fieldValue = value[field];
    if (typeof kind === 'object') {
      if (isObject(fieldValue)) checked[field] = checkObject(kind, fieldValue, `${name}.`, problems);
      else problems.push(`${name}: expected object, received ${kindOf(fieldValue)}`);
      continue;
    }
    const result = checkField(kind, fieldValue);
    if ('problem' in result) problems.push(`${name}: ${result.problem}`);
    else checked[field] = result.value;
  }
  const unknown = Object.keys(value).filter((field) => !Object.hasOwn(shape, field));
  if (unknown.length) {
    problems.push(
      `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => path + k).join(', ')}`,
    );
  }
  return checked;
}

/**
 * Checks a runtime configuration against spec section 3 (every field required, no unknown field)
 * and names every bad field, so a misconfigured deployment shows what to fix instead of a blank
 * page. Written by hand: a Zod schema here cost 15 KB gzip before the first paint.
 */
export function checkRuntimeConfig(value: unknown): RuntimeConfigResult {
  if (!isObject(value))
    return { ok: false, problems: [`(configuration): expected object, received ${kindOf(value)}`] };
  const problems: string[] = [];
  const config = checkObject(runtimeConfigShape, value, '', problems);
  return problems.length ? { ok: false, problems } : { ok: true, config: config as unknown as RuntimeConfig };
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
