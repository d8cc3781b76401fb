import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UserIdentity } from '../../kernel.ts';
import type { AttachedTool } from '../agents/index.ts';
import type { ChatAppDeps } from '../chat/index.ts';

/** What the demos need of the users module (`app.ts` wires it in): each visitor is a user of their own. */
export interface DemoUsers {
  /** Creates the user of an identity no token names yet, inside the caller's transaction. Returns the id. */
  create(identity: UserIdentity, trx: Kysely<Database>): Promise<number>;
  /** Deletes those of `ids` whose issuer is `issuer`, with every row they own. Returns how many went. */
  deleteIssuedBy(issuer: string, ids: number[]): Promise<number>;
}

/** What the demos need of the agents module: the visitor's demo agent, and its tools. */
export interface DemoAgents {
  /**
   * Creates an agent with these actions attached in order, inside the caller's transaction (the
   * caller vouches for the action ids; nothing is audited). Returns the id.
   */
  provision(
    userId: number,
    agent: { name: string; description: string; guidelines: string | null },
    actionIds: number[],
    trx: Kysely<Database>,
  ): Promise<number>;
  /** The tools attached to the user's agent, in the agent's order. */
  listTools(userId: number, agentId: number): Promise<AttachedTool[]>;
}

/** The demos' mount: the chat service's needs (its chat runs at /demos), with the visitors' users and agents. */
export interface DemoDeps extends ChatAppDeps {
  users: DemoUsers;
  agents: ChatAppDeps['agents'] & DemoAgents;
}
