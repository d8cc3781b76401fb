import type { UserIdentity, AuthUser } from '../../kernel.ts';

/** What the copilot token route needs of the agents module (`app.ts` wires it in). */
export interface CopilotAgents {
  /** Whether `agentId` is one of the user's agents. */
  exists(userId: number, agentId: number): Promise<boolean>;
  /** The origins allowed to embed the user's agent's copilot; [] for another user's agent. */
  embedOrigins(userId: number, agentId: number): Promise<string[]>;
}

/** What back-channel logout needs of the users module: the account a logout token names. */
export interface LogoutUsers {
  /** The user of an identity, if a token ever named it (never creates one). */
  find(identity: Pick<UserIdentity, 'issuer' | 'subject'>): Promise<AuthUser | undefined>;
}
