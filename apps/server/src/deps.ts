import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Database } from './db/schema.ts';
import type { Vault } from './security/vault.ts';

/**
 * What every module receives, and the few shared types that cross module lines. This file imports
 * no module: the shared services appear here as the narrow ports other modules use, and the modules
 * that own them implement these interfaces. `app.ts` wires the implementations in.
 */

/** The signed-in caller, as every private route sees it on `request.user`. */
export interface AuthUser {
  id: number;
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  picture: string | null;
}

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

/** The users module as the rest of the server sees it. */
export interface UserDirectory {
  /** Finds the user by issuer + subject (never by email), creating the row on first sight. */
  resolve(identity: UserIdentity): Promise<AuthUser>;
  /** Extension point for other modules; see {@link BeforeUserDelete}. */
  readonly beforeUserDelete: BeforeUserDelete[];
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
  service: { provider: string; key: string; ownerUserId: number | null; enabled: boolean };
}

/** What a conversation with an agent needs to know about it (the chat's system prompt and rules). */
export interface AgentProfile {
  id: number;
  name: string;
  description: string;
  guidelines: string | null;
  /** The owner's chat starters; empty when none were written. */
  starters: string[];
  /** The owner let write and send tools run in unattended (trigger) runs. */
  allowUnattendedWrites: boolean;
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
  /** The user's agent as the chat speaks for it; undefined for another user's or a missing agent. */
  profile(userId: number, agentId: number): Promise<AgentProfile | undefined>;
}

/** The process's shutdown state as modules see it (`http/lifecycle.ts` implements it). */
export interface Lifecycle {
  /** This process's id, made at start: what rows it holds (runs, claims) are marked with. */
  readonly instanceId: string;
  /** True once shutdown began: readiness answers 503 and connections are closed after each response. */
  readonly draining: boolean;
  /** Work to start when shutdown begins (e.g. stop taking new trigger events). */
  onDrain(hook: () => void | Promise<void>): void;
}

/** What every module receives: settings, the database, the secrets vault and shared services. */
export interface AppDeps {
  config: Config;
  db: Db;
  vault: Vault;
  audit: AuditLog;
  users: UserDirectory;
  agents: AgentDirectory;
  lifecycle: Lifecycle;
}
