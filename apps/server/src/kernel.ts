import type { Kysely } from 'kysely';
import type { UserExport, UserProfile } from '@cadre/contract';
import type { Database } from './db/schema.ts';
import type { SpanAttributes, SpanHandle } from './telemetry/span-types.ts';

/**
 * The kernel nearly every module uses, beside `Config` (config.ts) and `Db` (db/database.ts): who
 * the caller is, the one audit writer, a module's share of a user's data, the process's shutdown
 * state, and traces and metrics. It imports no module: the audit and users modules,
 * `http/lifecycle.ts` and `telemetry/` implement these. What one module needs of another is not
 * here: the needing module declares it in its own `ports.ts`, and `app.ts` wires the
 * implementations to it.
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
  /**
   * An admin deletes the user but hands their agents to `to`: before any `deleteFor` runs, in the
   * same transaction, the module gives `to` the rows that belong with the agents (the agents, their
   * versions, files, tool settings and trigger secret), so `deleteFor` leaves them alone.
   */
  transferAgents?(from: AuthUser, to: AuthUser, trx: Kysely<Database>): Promise<void>;
  /** Once the deletion has committed: what the module keeps outside the database goes too. */
  afterDelete?(): Promise<void>;
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
  /**
   * Runs of another instance whose lease ran out (it stopped renewing them: killed, or cut off from
   * the database) and that this instance released: `cadre_run_lease_expiries_total`.
   */
  runLeasesExpired(count: number): void;
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
