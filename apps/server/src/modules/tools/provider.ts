/**
 * The one interface every tool provider implements (built-in services, Composio, MCP servers).
 * The registry copies each provider's catalog into the services and actions tables; the tools
 * service connects users and executes actions through it. Providers never see our database ids
 * of other users' rows, and receive credentials already opened from the vault.
 */

export type ProviderId = 'builtin' | 'composio' | 'mcp' | 'demo';

/** 'read' runs freely; 'write' and 'send' need the user's approval in chat. */
export type ActionEffect = 'read' | 'write' | 'send';

/** Spec section 3: API_KEY, NO_OAUTH, NO_AUTH, or anything else meaning OAuth/token. */
export type AuthScheme = 'NO_AUTH' | 'API_KEY' | 'OAUTH2' | (string & {});

export interface ServiceDefinition {
  /** The provider's stable key (built-in slug, toolkit slug, MCP server name). */
  key: string;
  name: string;
  description: string;
  logo: string | null;
  authScheme: AuthScheme;
  /** Provider settings kept with the service (never secrets). */
  metadata?: Record<string, unknown>;
}

export interface ActionDefinition {
  /** Stable slug: the action's id survives catalog syncs through it. */
  name: string;
  displayName: string;
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  effect: ActionEffect;
  /** The provider's version, pinned with attached tools (Composio toolkit version). */
  version?: string | null;
}

export type ToolErrorCode =
  'auth_expired' | 'not_found' | 'rate_limited' | 'provider_error' | 'timeout' | 'invalid_input';

export type ToolResult =
  | { ok: true; data: unknown; credentials?: Credentials }
  | { ok: false; error: string; code: ToolErrorCode; credentials?: Credentials };

/** A tool failure with a message safe to show the user and the model (never a secret). */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * A key checked with its provider when it is saved did not pass: `refused` when the provider
 * said no (the caller's key is wrong), else the provider could not be asked or gave no clear
 * answer. The message names the provider and the status, never the key.
 */
export class KeyCheckError extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'KeyCheckError';
  }
}

/** Opened credentials of one connection (API key, OAuth tokens, a provider account id...). */
export type Credentials = Record<string, unknown>;

export interface ExecuteOptions {
  /**
   * The same for every attempt of one unattended write (a trigger event's): a provider whose API
   * takes an idempotency key passes it on, so a retried run cannot make the write twice.
   */
  idempotencyKey?: string;
}

export interface UserContext {
  userId: number;
}

export interface ServiceRef {
  id: number;
  key: string;
  authScheme: string;
  metadata: Record<string, unknown>;
}

export type ConnectInput =
  | { kind: 'no_auth' }
  | { kind: 'api_key'; apiKey: string }
  /** `state` is the single-use value the callback must present; `callbackUrl` is where it lands. */
  | { kind: 'oauth'; state: string; codeChallenge: string; callbackUrl: string };

export type ConnectResult =
  | { status: 'ACTIVE'; credentials?: Credentials; externalId?: string | null }
  | { status: 'INITIATED'; redirectUrl: string; credentials?: Credentials; externalId?: string | null };

export interface FinishOAuthInput {
  code?: string;
  codeVerifier: string;
  callbackUrl: string;
  /** Query hints from the redirect (Composio's connected account id); re-checked, never trusted. */
  hints: Record<string, string | undefined>;
  /** Credentials saved when the connection was initiated (e.g. the expected account id). */
  pending?: Credentials;
}

export interface ToolProvider {
  readonly id: ProviderId;
  /** Providers whose catalogs are large or remote list actions on first use, not at start-up. */
  readonly lazyActions?: boolean;
  /**
   * Hosts (each with its subdomains) the provider's OAuth and connect links may send a browser
   * to (I3); a link elsewhere is refused. None: the provider starts no browser flow.
   */
  readonly redirectHosts?: readonly string[];
  listServices(): Promise<ServiceDefinition[]>;
  /** Credentials are given for a user's own service (their MCP server's token). */
  listActions(service: ServiceRef, credentials?: Credentials | null): Promise<ActionDefinition[]>;
  connect(ctx: UserContext, service: ServiceRef, input: ConnectInput): Promise<ConnectResult>;
  finishOAuth?(
    ctx: UserContext,
    service: ServiceRef,
    input: FinishOAuthInput,
  ): Promise<{ credentials: Credentials; externalId?: string | null }>;
  disconnect(
    ctx: UserContext,
    service: ServiceRef,
    credentials: Credentials | null,
    externalId: string | null,
  ): Promise<void>;
  execute(
    ctx: UserContext,
    service: ServiceRef,
    action: { name: string; version: string | null },
    args: unknown,
    credentials: Credentials | null,
    options?: ExecuteOptions,
  ): Promise<ToolResult>;
  close?(): Promise<void>;
}

/** Tool errors from anything thrown: known errors keep their message, others become generic. */
export function toToolResult(err: unknown): ToolResult & { ok: false } {
  if (err instanceof ToolError) return { ok: false, error: err.message, code: err.code };
  const egress = err as { name?: string; code?: string; message?: string };
  if (egress?.name === 'EgressError') {
    const code = egress.code === 'timeout' ? 'timeout' : 'provider_error';
    return { ok: false, error: egress.message ?? 'The request failed', code };
  }
  return { ok: false, error: 'The tool failed unexpectedly', code: 'provider_error' };
}

/** Maps an HTTP status from a provider API to a tool error code. */
export function codeForStatus(status: number): ToolErrorCode {
  if (status === 401 || status === 403) return 'auth_expired';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'invalid_input';
  return 'provider_error';
}
