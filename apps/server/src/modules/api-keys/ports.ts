import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog, AuthUser } from '../../kernel.ts';

/** What the API keys need of the rest of the server (`app.ts` wires the users and agents modules in). */
export interface ApiKeysDeps {
  config: Pick<Config, 'secretsKey' | 'dataDir'>;
  db: Db;
  audit: AuditLog;
  /** A key acts as its owner: the owner as they are now, or undefined once deleted or while disabled. */
  users: { byId(id: number): Promise<AuthUser | undefined> };
  /** A key limited to agents may name only the owner's own. */
  agents: { summaries(userId: number): Promise<{ id: number }[]> };
}
