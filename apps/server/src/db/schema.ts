import type { ColumnType, Generated } from 'kysely';

/**
 * Table types for Kysely. Conventions that keep one schema working on SQLite and PostgreSQL
 * (see docs/architecture.md, "Database"):
 * - timestamps are ISO-8601 UTC strings (`text`), which sort correctly on both;
 * - flags are integers 0/1;
 * - structured values (JSON schemas, message parts, audit details) are JSON text.
 */
export interface Database {
  users: UsersTable;
  agents: AgentsTable;
  services: ServicesTable;
  actions: ActionsTable;
  agent_tools: AgentToolsTable;
  tool_permissions: ToolPermissionsTable;
  agent_versions: AgentVersionsTable;
  connections: ConnectionsTable;
  oauth_states: OAuthStatesTable;
  threads: ThreadsTable;
  messages: MessagesTable;
  message_feedback: MessageFeedbackTable;
  approvals: ApprovalsTable;
  trigger_events: TriggerEventsTable;
  trigger_secrets: TriggerSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  audit_events: AuditEventsTable;
  rate_limits: RateLimitsTable;
  list_versions: ListVersionsTable;
  settings: SettingsTable;
  idp_accounts: IdpAccountsTable;
  idp_payloads: IdpPayloadsTable;
  chat_sessions: ChatSessionsTable;
  chat_revocations: ChatRevocationsTable;
  logout_tokens: LogoutTokensTable;
  deleted_identities: DeletedIdentitiesTable;
  demo_sessions: DemoSessionsTable;
  demo_orders: DemoOrdersTable;
  demo_refunds: DemoRefundsTable;
  demo_tickets: DemoTicketsTable;
  demo_activities: DemoActivitiesTable;
  demo_researched_leads: DemoResearchedLeadsTable;
  notes: NotesTable;
  calendar_events: CalendarEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  instances: InstancesTable;
  chat_runs: ChatRunsTable;
  chat_run_chunks: ChatRunChunksTable;
  host_calls: HostCallsTable;
  tool_executions: ToolExecutionsTable;
  api_keys: ApiKeysTable;
  turn_usage: TurnUsageTable;
  knowledge_files: KnowledgeFilesTable;
  knowledge_file_contents: KnowledgeFileContentsTable;
  knowledge_passages: KnowledgePassagesTable;
  knowledge_file_spans: KnowledgeFileSpansTable;
  knowledge_object_deletions: KnowledgeObjectDeletionsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  access_codes: AccessCodesTable;
}

/** A file attached to an agent (migration 0022, knowledge module). */
export interface KnowledgeFilesTable {
  /** A server UUID: never derived from the uploaded name. */
  id: string;
  user_id: number;
  agent_id: number;
  /** The name the person gave it, for display only. */
  name: string;
  /** Sniffed from the bytes. */
  media_type: string;
  size_bytes: number;
  sha256: string;
  pages: number | null;
  passage_count: number;
  embedding_model: string | null;
  created_at: string;
  /** The bucket's key for the bytes (migration 0023); null: in knowledge_file_contents. */
  object_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Deleted from the agent, kept for the versions that list it. */
  detached_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Erased for good: bytes and passages gone, the name kept for the history. */
  erased_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which versions of its agent list a file: from the one that attached it to the one that detached it. */
export interface KnowledgeFileSpansTable {
  id: Generated<number>;
  file_id: string;
  user_id: number;
  agent_id: number;
  from_version: number;
  /** null while attached. */
  to_version: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Bucket objects to delete once `due_at` has passed (the sweep in modules/knowledge). */
export interface KnowledgeObjectDeletionsTable {
  object_key: string;
  due_at: string;
}

export interface KnowledgeFileContentsTable {
  file_id: string;
  content: Buffer;
}

/** A passage of a knowledge file's text; full-text indexed (FTS5 / tsvector). */
export interface KnowledgePassagesTable {
  id: Generated<number>;
  file_id: string;
  user_id: number;
  agent_id: number;
  ordinal: number;
  page: number | null;
  text: string;
  /** float32 vector bytes; null without an embedding model. */
  embedding: Buffer | null;
}

/**
 * What one agent run cost (migration 0024, usage module): tokens, model, cost, tool calls, how it
 * ended. The agent and thread have no foreign key, so usage outlives them; the row goes with its user.
 */
export interface TurnUsageTable {
  id: Generated<number>;
  user_id: number;
  agent_id: number | null;
  thread_id: string | null;
  run_id: string;
  /** 'chat' | 'copilot' | 'api' | 'mcp' | 'trigger' */
  source: string;
  /** The offered model's id (LLM_MODELS). */
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** 1 when the counts are estimated (the offline model, a provider that reports none). */
  estimated: Generated<number>;
  /** From the model's prices per million tokens at the time; null when it has none. */
  cost: number | null;
  tool_calls: Generated<number>;
  /** 'complete' | 'awaiting_approval' | 'error' | 'interrupted' */
  status: string;
  /** 1 when the row continues a run after an approval (not a new turn). */
  continued: Generated<number>;
  created_at: string;
}

/** A personal API key (migration 0012, api-keys module); the key itself is never stored. */
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The key's first characters, for telling keys apart in the list. */
  prefix: string;
  /** HMAC-SHA-256 of the key (hex) under a key derived from the vault key; unique. */
  hash: string;
  /** JSON array of scopes. */
  scopes: string;
  /** JSON array of agent ids the key is limited to; null for all the user's agents. */
  agent_ids: string | null;
  /** JSON array of the web origins the key may be used from in a browser (migration 0037). */
  allowed_origins: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** A run segment streamed by one instance (migration 0008). */
export interface ChatRunsTable {
  id: string;
  run_id: string;
  thread_id: string;
  user_id: number;
  message_id: string;
  instance_id: string;
  /** 'running' | 'complete' | 'awaiting_approval' | 'interrupted' | 'error' */
  status: string;
  stop_requested: Generated<number>;
  started_at: string;
  heartbeat_at: string;
  ended_at: string | null;
}

/** A batch of a running answer's stream, for watchers on other instances (migration 0031). */
export interface ChatRunChunksTable {
  claim_id: string;
  /** The number in the run of the batch's first chunk. */
  seq: number;
  /** A JSON array of UI message chunks; null: the stream ended. */
  chunks: string | null;
  created_at: string;
}

/** A copilot run's call of a host-page function, waiting for the page's answer. */
export interface HostCallsTable {
  id: string;
  user_id: number;
  agent_id: number;
  run_id: string;
  name: string;
  /** 'pending' | 'answered' | 'expired' (kept until expires_at + TOMBSTONE_MS to answer 410) */
  status: string;
  /** The page's result as JSON text, once answered. */
  result: string | null;
  created_at: string;
  expires_at: string;
}

/** The result of a write tool run under an idempotency key (a trigger event's), as JSON text. */
export interface ToolExecutionsTable {
  idempotency_key: string;
  user_id: number;
  /** The write's answer as JSON; `null` (the JSON text) while pending. */
  result: string;
  /** 'pending' (called, outcome unknown) | 'done' (migration 0025). */
  status: Generated<string>;
  created_at: string;
}

/** One row per running server process (its id is made at start). */
export interface InstancesTable {
  id: string;
  started_at: string;
  seen_at: string;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status: number;
  response: string;
  created_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  picture: string | null;
  /** When the user passed the beta access-code gate; null for one who never did. */
  admitted_at: string | null;
  /**
   * When an earlier account of this issuer and subject was deleted, for a user created again after
   * it; access tokens issued until then are refused (see DeletedIdentitiesTable).
   */
  previous_deletion_at: Generated<string | null>;
  /** admin | builder | member (the contract's `Role`); see migration 0034. */
  role: Generated<'admin' | 'builder' | 'member'>;
  /** When an admin disabled the account; every request of it is refused while set. */
  disabled_at: Generated<string | null>;
  /** The account's last request, written at most once an hour. */
  last_active_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** Groups of accounts, made by an admin or synced from the issuer's groups claim (migration 0035). */
export interface GroupsTable {
  id: Generated<number>;
  name: string;
  source: Generated<'manual' | 'oidc'>;
  created_at: string;
  updated_at: string;
}

/** Access codes made by an admin (migration 0036); BETA_ACCESS_CODES are not stored. */
export interface AccessCodesTable {
  id: Generated<number>;
  label: string;
  /** HMAC-SHA-256 (hex) of the code under a key derived from the vault key. */
  code_hash: string;
  /** The code's last four characters. */
  hint: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: Generated<number>;
  revoked_at: Generated<string | null>;
  created_by: number | null;
  created_at: string;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  created_at: string;
}

export interface AgentsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  guidelines: string | null;
  /** Whether triggered (unattended) runs may execute write and send actions. */
  allow_unattended_writes: Generated<number>;
  /** 'approve' or 'refuse': a write asked through the API or MCP (migration 0028). */
  api_writes: Generated<string>;
  /** An emoji, or `avatar:<style>` for a generated avatar (migration 0011). */
  icon: string | null;
  /** A palette name from AGENT_COLORS (migration 0011). */
  color: string | null;
  /** An offered model's id (LLM_MODELS); null for the default (migration 0021). */
  model_id: Generated<string | null>;
  /** 0-2; null for the provider's default (migration 0021). */
  temperature: Generated<number | null>;
  /** The owner's chat starters as a JSON array of strings (migration 0013); null means none. */
  starters: string | null;
  /** Origins allowed to embed the copilot, as a JSON array of strings (migration 0020); null means none. */
  embed_origins: string | null;
  created_at: string;
  updated_at: string;
}

export interface ServicesTable {
  id: Generated<number>;
  /** 'builtin' | 'composio' | 'mcp' */
  provider: string;
  /** The provider's own key for the service (toolkit slug, MCP server name...). */
  provider_key: string;
  /** Set for a service only its owner sees (a user's own MCP server). */
  owner_user_id: number | null;
  name: string;
  description: string;
  logo: string | null;
  /** API_KEY | NO_AUTH | NO_OAUTH | OAUTH2 | ... (spec section 3). */
  auth_scheme: string;
  enabled: Generated<number>;
  /** Provider-specific settings as JSON text (never secrets). */
  metadata: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ActionsTable {
  id: Generated<number>;
  service_id: number;
  /** The provider's slug for the action; stable, so ids survive catalog syncs. */
  name: string;
  display_name: string;
  description: string;
  /** JSON Schema of the input, as JSON text. */
  input_schema: string;
  /** 'read' | 'write' | 'send' — write and send need the user's approval in chat. */
  effect: string;
  version: string | null;
  /** 1 when the provider no longer lists the action; kept so attached tools keep their ids. */
  deprecated: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface AgentToolsTable {
  agent_id: number;
  action_id: number;
  /** The provider version pinned when the tool was attached. */
  version: string | null;
  position: number;
}

/** "Allow without asking" for one write/send tool of an agent (migration 0017, agents module). */
export interface ToolPermissionsTable {
  agent_id: number;
  action_id: number;
  user_id: number;
  /** 'chat' | 'editor' */
  source: string;
  created_at: string;
}

/** A saved state of an agent (migration 0009); `snapshot` is JSON text (agents module, versions.ts). */
export interface AgentVersionsTable {
  agent_id: number;
  number: number;
  user_id: number;
  /** 'create' | 'update' | 'restore' | 'import' | 'template' | 'duplicate' | 'baseline' | 'files' */
  reason: string;
  restored_from: number | null;
  saved_by: number | null;
  author: string | null;
  snapshot: string;
  created_at: string;
  /** For a `files` version: the upload batch it records (migration 0023). */
  batch: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConnectionsTable {
  id: Generated<number>;
  user_id: number;
  service_id: number;
  /** ACTIVE | INITIATED | EXPIRED | FAILED | INACTIVE */
  status: string;
  /** The provider's id for the connection (e.g. a Composio connected account). */
  external_id: string | null;
  /** Credentials sealed by the secrets vault; never returned or logged. */
  credentials: string | null;
  created_at: string;
  updated_at: string;
  /** When a tool call last used the connection (0015). */
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last error a tool call met (secrets redacted) and when; cleared when the connection is saved again. */
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  last_error_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OAuthStatesTable {
  /** SHA-256 of the state value; the value itself is only ever in the browser's redirect. */
  state_hash: string;
  user_id: number;
  service_id: number;
  /** The PKCE verifier, sealed by the vault. */
  verifier: string;
  /** SHA-256 of the secret in the starting browser's cookie; the callback must present it (I1). */
  binding_hash: string | null;
  expires_at: string;
  created_at: string;
}

export interface ThreadsTable {
  id: string;
  user_id: number;
  agent_id: number;
  name: string;
  /** 'chat' | 'trigger' */
  origin: Generated<string>;
  /** The embedding site's visitor (migration 0020); '' for the owner's own threads. */
  end_user: Generated<string>;
  metadata: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface MessagesTable {
  id: string;
  thread_id: string;
  /** 'user' | 'assistant' | 'system' */
  role: string;
  /** The message parts (text, tool calls and results) as JSON text. */
  parts: string;
  /** 'complete' | 'interrupted' | 'error' */
  status: string;
  created_at: string;
  /** The model that wrote an answer (migration 0018); null for user messages and older answers. */
  model: string | null;
}

/** A person's rating of an answer (migration 0014). */
export interface MessageFeedbackTable {
  message_id: string;
  user_id: number;
  /** 'up' | 'down' */
  rating: string;
  comment: string | null;
  updated_at: string;
}

export interface ApprovalsTable {
  id: string;
  user_id: number;
  thread_id: string;
  run_id: string;
  tool_call_id: string;
  action_id: number;
  /** SHA-256 of the canonical JSON of the arguments the model asked for. */
  args_hash: string;
  args: string;
  /** 'pending' | 'approved' | 'denied' | 'executed' | 'expired' */
  status: string;
  expires_at: string;
  created_at: string;
  decided_at: string | null;
}

export interface TriggerEventsTable {
  id: Generated<number>;
  user_id: number;
  agent_id: number;
  trigger_id: string;
  payload: string;
  /** 'pending' | 'running' | 'done' | 'failed' */
  status: string;
  thread_id: string | null;
  /** Runs started for this event (a run orphaned by a crash is retried, up to a limit). */
  attempts: Generated<number>;
  /** The instance running it, and when that instance last said it still is. */
  instance_id: string | null;
  heartbeat_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An agent's Standard Webhooks secret for signed trigger calls (migration 0019). */
export interface TriggerSecretsTable {
  agent_id: number;
  user_id: number;
  /** `whsec_…`, sealed with the vault. */
  secret: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  /** The provider's delivery id (`webhook-id`), unique: a replay is processed once. */
  id: string;
  provider: string;
  received_at: string;
}

export interface AuditEventsTable {
  id: Generated<number>;
  user_id: number | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  /** Extra facts as JSON text; never secrets. */
  detail: Generated<string>;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/**
 * A user's agent list version (migration 0033, `db/list-versions.ts`): raised by every write that
 * changes what the list shows; no row is version 0.
 */
export interface ListVersionsTable {
  user_id: number;
  version: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ChatSessionsTable {
  /** SHA-256 (hex) of the random session value in the `/chainlit` cookie. */
  id_hash: string;
  user_id: number;
  agent_id: number;
  expires_at: string;
  created_at: string;
  /** When sign-out ended it (migration 0009); a revoked row is never accepted again. */
  revoked_at: string | null;
  /**
   * The identity provider session it was opened under: the access token's `sid` (migration 0030);
   * null when the issuer puts none in access tokens.
   */
  idp_sid: string | null;
}

/** Back-channel logout tokens already accepted, until they expire (migration 0030, auth module). */
export interface LogoutTokensTable {
  /** SHA-256 (hex) of the issuer and the token's `jti`. */
  jti: string;
  expires_at: string;
}

/** When a user last signed out: copilot tokens issued before then are refused (migration 0009). */
export interface ChatRevocationsTable {
  user_id: number;
  revoked_at: string;
}

export interface DemoSessionsTable {
  /** SHA-256 (hex) of the random session value in the `/demos` cookie. */
  id_hash: string;
  user_id: number;
  agent_id: number;
  demo: string;
  /** The rate-limit key of the client address that logged in. */
  client_key: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute end of the session, whatever the activity. */
  expires_at: string;
}

export interface DemoOrdersTable {
  user_id: number;
  order_id: string;
  status: string;
  refunded_cents: number;
  updated_at: string;
}

export interface DemoRefundsTable {
  user_id: number;
  id: string;
  order_id: string;
  amount_cents: number;
  reason: string;
  created_at: string;
}

export interface DemoTicketsTable {
  user_id: number;
  id: string;
  subject: string;
  order_id: string | null;
  customer_email: string | null;
  priority: string;
  status: string;
  created_at: string;
}

export interface DemoActivitiesTable {
  user_id: number;
  id: string;
  lead_id: string;
  type: string;
  notes: string;
  created_at: string;
}

/** The leads a sales-demo visitor has researched (`draft_outreach_email` writes only to those). */
export interface DemoResearchedLeadsTable {
  user_id: number;
  lead_id: string;
  researched_at: string;
}

export interface NotesTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface CalendarEventsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  description: Generated<string>;
  location: Generated<string>;
  /** ISO-8601 UTC instants. */
  starts_at: string;
  ends_at: string;
  created_at: string;
  updated_at: string;
}

/** Accounts of the built-in identity provider (not the API's `users`, which any issuer fills). */
export interface IdpAccountsTable {
  id: Generated<number>;
  subject: string;
  /** Lower-cased. */
  email: string;
  name: string;
  /** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

/** oidc-provider's stored models (Session, Grant, AccessToken, RefreshToken, Interaction...). */
export interface IdpPayloadsTable {
  kind: string;
  id: string;
  /** The model's payload as JSON text. */
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  consumed_at: string | null;
  expires_at: string | null;
}

/**
 * Deleted users' identities: an access token issued before the deletion is refused and never
 * creates the user again (docs/security.md, "Data export and deletion").
 */
export interface DeletedIdentitiesTable {
  /** HMAC-SHA-256 (hex) of issuer and subject under a key derived from the vault key. */
  identity_hash: string;
  deleted_at: string;
}
