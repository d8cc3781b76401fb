import type { Kysely } from 'kysely';
import type {
  AgentExportDocument,
  AgentExportFile,
  ApiKeyScope,
  ApiWrites,
  UserExport,
  UserProfile,
} from '@cadre/contract';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Database } from './db/schema.ts';
import type { Vault } from './security/vault.ts';
import type { SpanAttributes, SpanHandle } from './telemetry/span-types.ts';

/**
 * What every module receives, and the few shared types that cross module lines. This file imports
 * no module: the shared services appear here as the narrow ports other modules use, and the modules
 * that own them implement these interfaces. `app.ts` wires the implementations in.
 */

/** The signed-in caller, as every private route sees it on `request.user`: the profile without its times. */
export type AuthUser = Omit<UserProfile, 'created_at' | 'updated_at'>;

/** Who a token names: issuer and subject (never the email), plus the profile claims it carries. */
export interface UserIdentity {
  issuer: string;
  subject: string;
  email?: string | null;
  name?: string | null;
  picture?: string | null;
}

/**
 * An interaction worth answering "who did what, when" for. Details are facts (ids, names of fields
 * changed, counts); never secrets, tokens, passwords or message text.
 */
export interface AuditEvent {
  /** The acting user; null for anonymous calls (the access-code gate). */
  userId: number | null;
  /** Dotted verb, e.g. `agent.create`, `user.sign_in`, `access_code.failure`. */
  action: string;
  objectType?: string;
  objectId?: string | number;
  detail?: Record<string, string | number | boolean | null | (string | number)[]>;
}

/** The one audit writer (DESIGN.md section 3). */
export interface AuditLog {
  /** Pass the open transaction to record the event atomically with the change it describes. */
  record(event: AuditEvent, trx?: Kysely<Database>): Promise<void>;
}

/**
 * Runs before a user's rows are deleted. Modules that hold something for the user outside the
 * database (a provider connection, for example) register one to revoke it; a hook that throws
 * stops the deletion, so nothing is half-deleted and the user can retry.
 */
export type BeforeUserDelete = (user: AuthUser) => Promise<void>;

/** What one module puts into a user's export: any keys of it but the export's time and profile. */
export type UserExportPart = Partial<Omit<UserExport, 'exported_at' | 'profile'>>;

/**
 * A module that keeps rows about a user (P1): it exports them (never secrets or their hashes) for
 * `GET /users/me/export`, and deletes them for `DELETE /users/me`. Every owner's `deleteFor` runs
 * in one transaction, in the order the owners were registered, before the user's own row goes;
 * so a module deletes what refers to another module's rows before that module runs (foreign keys
 * cascade as well).
 */
export interface UserDataOwner {
  /** The module, for errors. */
  readonly name: string;
  exportFor(user: AuthUser): Promise<UserExportPart>;
  deleteFor(user: AuthUser, trx: Kysely<Database>): Promise<void>;
  /** Once the deletion has committed: what the module keeps outside the database goes too. */
  afterDelete?(): Promise<void>;
}

/** A user as sign-in finds them, with whether they passed the beta access-code gate. */
export interface ResolvedUser extends AuthUser {
  admitted: boolean;
}

/** The users module as the rest of the server sees it. */
export interface UserDirectory {
  /** Finds the user by issuer + subject (never by email), creating the row on first sight. */
  resolve(identity: UserIdentity): Promise<ResolvedUser>;
  /**
   * Records that the user passed the beta access-code gate (once; later calls change nothing),
   * creating the user first when no token has named them yet (a sign-up at the built-in provider).
   */
  admit(identity: UserIdentity): Promise<void>;
  /** The user of an identity, if a token ever named it (never creates one). */
  find(identity: Pick<UserIdentity, 'issuer' | 'subject'>): Promise<AuthUser | undefined>;
  /** Extension point for other modules; see {@link BeforeUserDelete}. */
  readonly beforeUserDelete: BeforeUserDelete[];
  /** Every module that keeps rows about users; see {@link UserDataOwner}. */
  readonly dataOwners: UserDataOwner[];
  /**
   * Creates the user of an identity no token names yet (a demo visitor) inside the caller's
   * transaction, so the user and what the caller creates for it commit together. Returns the id.
   */
  create(identity: UserIdentity, trx: Kysely<Database>): Promise<number>;
  /**
   * Deletes those of `ids` whose issuer is `issuer` (a module can only remove the users it made),
   * with every row they own. Returns how many went.
   */
  deleteIssuedBy(issuer: string, ids: number[]): Promise<number>;
  /** The user with this id, or undefined once deleted (an API key's owner). */
  byId(id: number): Promise<AuthUser | undefined>;
}

/** A tool attached to an agent, with the service it comes from. */
export interface AttachedTool {
  actionId: number;
  /** The action's provider slug (unique per service). */
  name: string;
  displayName: string;
  description: string;
  /** JSON Schema of the arguments (an empty object schema when the stored one is unreadable). */
  inputSchema: Record<string, unknown>;
  effect: 'read' | 'write' | 'send';
  /** For a write/send tool: ask before each chat call (the default) or run without asking. */
  approval: 'ask' | 'allow';
  service: { provider: string; key: string; ownerUserId: number | null; enabled: boolean };
}

/** What a conversation with an agent needs to know about it (the chat's system prompt and rules). */
export interface AgentProfile {
  id: number;
  name: string;
  description: string;
  guidelines: string | null;
  /** An emoji or `avatar:<style>`, and a palette name: how the agent looks in the chat header. */
  icon: string | null;
  color: string | null;
  /** The owner's chat starters; empty when none were written. */
  starters: string[];
  /** The owner let write and send tools run in unattended (trigger) runs. */
  allowUnattendedWrites: boolean;
  /** What a write or send call asked through the API or MCP does: wait for approval, or refused. */
  apiWrites: ApiWrites;
  /** The offered model the agent runs on (LLM_MODELS id); null: the default. */
  modelId: string | null;
  /** 0-2; null leaves the provider's default. */
  temperature: number | null;
}

/** The agents module as the rest of the server sees it: ownership checks for what names an agent. */
export interface AgentDirectory {
  /** Whether `agentId` is one of the user's agents (another user's agent is simply absent). */
  exists(userId: number, agentId: number): Promise<boolean>;
  /** The ids of the user's agents that have a tool of the service attached. */
  withServiceTools(userId: number, serviceId: number): Promise<number[]>;
  /** The tools attached to the user's agent, in the agent's order (none for another user's agent). */
  listTools(userId: number, agentId: number): Promise<AttachedTool[]>;
  /**
   * Creates an agent with these actions attached in order, inside the caller's transaction. For
   * agents the server sets up (a demo's), not a user's request: the caller vouches for the action
   * ids, and nothing is audited. Returns the id.
   */
  provision(
    userId: number,
    agent: { name: string; description: string; guidelines: string | null },
    actionIds: number[],
    trx: Kysely<Database>,
  ): Promise<number>;
  /** The origins allowed to embed the user's agent's copilot; [] for another user's agent. */
  embedOrigins(userId: number, agentId: number): Promise<string[]>;
  /** Whether any agent lets pages of this (normalised) origin embed its copilot: CORS preflights. */
  anyAllowsEmbedOrigin(origin: string): Promise<boolean>;
  /** The user's agent as the chat speaks for it; undefined for another user's or a missing agent. */
  profile(userId: number, agentId: number): Promise<AgentProfile | undefined>;
  /** The user's agents, oldest first (what the OpenAI-compatible API lists as models). */
  summaries(userId: number): Promise<AgentSummary[]>;
  /**
   * "Always allow for this agent" from an approval card: the tool runs without asking from now
   * on (audited). Throws 404 when the agent is not the user's or the tool is not attached to it.
   */
  allowWithoutAsking(userId: number, agentId: number, actionId: number, approvalId: string): Promise<void>;
  /**
   * Records, in the caller's transaction, that the agent's files changed: a new version (reason
   * `files`), or, for the next upload of a `batch` whose version is still the newest, that same
   * version. Answers its number (the knowledge module lists the files from it on). Throws 404
   * when the agent is not the user's.
   */
  recordFilesChange(user: AuthUser, agentId: number, trx: Kysely<Database>, batch?: string): Promise<number>;
  /** Called once an agent's deletion has committed: cleaning up what is kept outside the database. */
  readonly afterAgentDelete: (() => Promise<void>)[];
}

/** Knowledge files checked and indexed for a new agent (an import), not written yet. */
export interface StagedFiles {
  readonly files: KnowledgeFileRef[];
  /** In the import's transaction, once the agent and its first version exist. */
  attach(trx: Kysely<Database>, userId: number, agentId: number, version: number): Promise<void>;
  /** After a transaction that did not commit: nothing of them stays, in the database or a bucket. */
  discard(): Promise<void>;
}

/**
 * The agent export with its files, as a zip (the knowledge module, for the agents routes): written
 * from the document and the agent's files, read back within the limits of an upload (E1-E3).
 */
export interface AgentArchives {
  /** The most an import zip may be, packed or unpacked (KNOWLEDGE_MAX_ARCHIVE_BYTES). */
  readonly maxArchiveBytes: number;
  /** `agent.json` (the document, listing the files) and the agent's files' bytes. */
  write(userId: number, agentId: number, document: AgentExportDocument): Promise<Uint8Array>;
  /** An import zip: agent.json's JSON, not yet checked, and the files' bytes by entry name. */
  read(zip: Uint8Array): { document: unknown; entries: Map<string, Uint8Array> };
  /** The document's files from the archive, checked and indexed: 422 naming the file otherwise. */
  prepare(listed: AgentExportFile[], entries: Map<string, Uint8Array>): Promise<StagedFiles>;
}

/**
 * The knowledge module's part in an agent's versions (wired by app.ts): which files each version
 * lists, and what a restore does to them.
 */
export interface KnowledgeHistory {
  /** The files each of the agent's versions lists, by version number, read in `executor`. */
  filesByVersion(
    executor: Kysely<Database>,
    userId: number,
    agentId: number,
  ): Promise<(version: number) => KnowledgeFileRef[]>;
  /**
   * In a restore's transaction: the agent's files become exactly `files` from version `atVersion`
   * on. Answers those of `files` that cannot come back (erased, or gone before files were kept).
   */
  restore(
    trx: Kysely<Database>,
    userId: number,
    agentId: number,
    files: KnowledgeFileRef[],
    atVersion: number,
  ): Promise<KnowledgeFileRef[]>;
}

/** A knowledge file as other modules see it: an agent version's file list, the agent export. */
export interface KnowledgeFileRef {
  /** A server UUID. */
  id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
}

/** A passage found for a question, with what cites it: the file and the passage's number in it. */
export interface KnowledgeHit {
  file_id: string;
  file_name: string;
  /** The passage's number in its file, from 1. */
  passage: number;
  /** The PDF page it comes from; null for other kinds. */
  page: number | null;
  text: string;
}

/** The knowledge module as the chat and the agents modules see it. */
export interface KnowledgeBase {
  /** The agent's attached files, oldest first, read in `executor` (an open transaction or the database). */
  files(userId: number, agentId: number, executor?: Kysely<Database>): Promise<KnowledgeFileRef[]>;
  /** The passages of the user's agent's files that best answer `query`, best first. */
  search(userId: number, agentId: number, query: string, limit?: number): Promise<KnowledgeHit[]>;
}

/** An agent as a list outside the agents module shows it. */
export interface AgentSummary {
  id: number;
  name: string;
  description: string;
  createdAt: string;
}

/**
 * The beta access-code gate as other modules see it (the access-code module implements it). A
 * correct code at `beta-user-signin` earns the browser a signed, short-lived proof in an httpOnly
 * cookie; sign-up at the built-in provider needs one, and the API admits a user who presents one.
 */
export interface AccessGate {
  /** False with DISABLE_AUTH (every request is the mock user, and nobody signs in). */
  readonly enabled: boolean;
  /** Whether a request's `Cookie` header carries a valid, unexpired proof. */
  hasProof(cookieHeader: string | undefined): boolean;
  /**
   * Checks a code typed somewhere else than the web app (the provider's sign-up page): rate
   * limited and audited like `beta-user-signin`. The `Set-Cookie` value of a new proof, or
   * undefined for a wrong code; throws the 429 when the address has tried too often.
   */
  redeem(code: string, clientAddress: string): Promise<string | undefined>;
}

/** What a valid personal API key lets its bearer do, and as whom. */
export interface ApiKeyGrant {
  keyId: number;
  user: AuthUser;
  scopes: readonly ApiKeyScope[];
  /** The agents the key is limited to; null for all of the user's agents. */
  agentIds: readonly number[] | null;
}

/** The api-keys module as `http/auth.ts` sees it. */
export interface ApiKeyVerifier {
  /** Whether a bearer token is an API key (by its prefix) rather than a sign-in token. */
  isApiKey(token: string): boolean;
  /** The key's grant; undefined when it is unknown, revoked or expired, or its user is gone. */
  verify(key: string): Promise<ApiKeyGrant | undefined>;
}

/** The process's shutdown state as modules see it (`http/lifecycle.ts` implements it). */
export interface Lifecycle {
  /** This process's id, made at start: what rows it holds (runs, claims) are marked with. */
  readonly instanceId: string;
  /** True once shutdown began: readiness answers 503 and connections are closed after each response. */
  readonly draining: boolean;
  /** Work to start when shutdown begins (e.g. stop taking new trigger events). */
  onDrain(hook: () => void | Promise<void>): void;
  /** Rejected promises nobody handled since the process started (R12); `/health/live` shows it. */
  readonly unhandledRejections: number;
  /** Counts one more unhandled rejection and returns the new count. */
  countUnhandledRejection(): number;
}

/** Where a run came from: the chat frame, the copilot, the OpenAI-compatible API, MCP, a trigger. */
export type RunSource = 'chat' | 'copilot' | 'api' | 'mcp' | 'trigger';

/** What one agent run used, as the chat hands it over in the run's last commit. */
export interface RunUsage {
  userId: number;
  agentId: number;
  threadId: string;
  runId: string;
  source: RunSource;
  /** The offered model's id (LLM_MODELS) that answered. */
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** The counts are estimated: the offline model, or a provider that reported none. */
  estimated: boolean;
  toolCalls: number;
  /** How the run ended: complete, awaiting_approval, error or interrupted. */
  status: string;
  /** The run continues after an approval: the same turn, not a new one. */
  continued: boolean;
}

/** The usage module as the chat sees it: runs are recorded, and the monthly budget is checked. */
export interface UsageLedger {
  /** Stores the run's usage and cost in the caller's transaction (the run's last save). */
  record(usage: RunUsage, trx: Kysely<Database>): Promise<void>;
  /**
   * Throws a 429 naming the reset date (with `Retry-After`) once the user's tokens this month
   * reach USER_MONTHLY_TOKEN_BUDGET; nothing when the budget is off or not reached.
   */
  checkBudget(userId: number): Promise<void>;
}

export type { SpanAttributes, SpanHandle };

/** Counters and histograms for `/backend/metrics` (no-ops while metrics are off). */
export interface MetricsRecorder {
  chatRun(source: RunSource, status: string, seconds: number): void;
  modelCall(
    model: string,
    outcome: 'ok' | 'error',
    seconds: number,
    tokens?: { input: number; output: number },
  ): void;
  toolCall(provider: string, outcome: string, seconds: number): void;
}

/**
 * Traces and metrics as modules see them (`src/telemetry` implements it over OpenTelemetry's API
 * and prom-client), so no module imports the SDKs. Spans started here are children of the current
 * one and carry the attributes the enclosing `span(..., { inherit })` handed down (user and agent).
 */
export interface Telemetry {
  /** Whether spans or metrics are recorded at all; when false, callers may skip their wrapping. */
  readonly active: boolean;
  /** The operator let model spans carry prompt and answer text. */
  readonly captureMessageContent: boolean;
  /** Runs `fn` inside a new span, ended when `fn` settles; `inherit` goes on every span inside. */
  span<T>(
    name: string,
    attributes: SpanAttributes,
    fn: (span: SpanHandle) => Promise<T>,
    options?: { inherit?: SpanAttributes; kind?: 'internal' | 'client' },
  ): Promise<T>;
  /** A span the caller ends (a streamed model answer), child of the current one. */
  startSpan(name: string, attributes: SpanAttributes, options?: { kind?: 'internal' | 'client' }): SpanHandle;
  readonly metrics: MetricsRecorder;
}

/** What every module receives: settings, the database, the secrets vault and shared services. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: Vault;
  audit: AuditLog;
  users: UserDirectory;
  agents: AgentDirectory;
  knowledge: KnowledgeBase;
  lifecycle: Lifecycle;
  usage: UsageLedger;
  telemetry: Telemetry;
}
