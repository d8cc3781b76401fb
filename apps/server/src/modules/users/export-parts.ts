import type { UserExportPart } from '../../kernel.ts';

/** What an export holds when no module contributes to a key. */
const EMPTY_EXPORT: Required<UserExportPart> = {
  agents: [],
  agent_versions: [],
  knowledge_files: [],
  knowledge_passages: [],
  knowledge_file_spans: [],
  tool_permissions: [],
  services: [],
  connections: [],
  threads: [],
  messages: [],
  tool_calls: [],
  approvals: [],
  chat_runs: [],
  host_calls: [],
  tool_executions: [],
  notes: [],
  calendar_events: [],
  trigger_events: [],
  trigger_secrets: [],
  audit_events: [],
  sessions: [],
  identity_account: null,
  api_keys: [],
  usage: [],
};

/** Lists from several modules under one key (sessions) are joined; anything else is taken as is. */
export function mergeParts(parts: UserExportPart[]): Required<UserExportPart> {
  const merged: Record<string, unknown> = { ...EMPTY_EXPORT };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const current = merged[key];
      merged[key] = Array.isArray(current) && Array.isArray(value) ? [...current, ...value] : value;
    }
  }
  return merged as Required<UserExportPart>;
}
