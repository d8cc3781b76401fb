import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../kernel.ts';
import type { Vault } from '../../security/vault.ts';

/** What the triggers module needs of the agents module (`app.ts` wires it in). */
export interface TriggerAgents {
  /** Whether `agentId` is one of the user's agents (another user's agent is simply absent). */
  exists(userId: number, agentId: number): Promise<boolean>;
  /** The ids of the user's agents that have a tool of the service attached. */
  withServiceTools(userId: number, serviceId: number): Promise<number[]>;
}

/** What the trigger routes need: the agents they name, and the month's token budget a call is checked against. */
export interface TriggerRouteDeps {
  config: Config;
  db: Db;
  vault: Vault;
  audit: AuditLog;
  agents: Pick<TriggerAgents, 'exists'>;
  /** 429 once the owner used the month's token budget (the usage module). */
  usage: { checkBudget(userId: number): Promise<void> };
  /** Whether the owner may act: a signed call of an account an admin disabled is refused (the users module). */
  owners: { isActive(userId: number): Promise<boolean> };
}
