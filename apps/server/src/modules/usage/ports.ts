/** What the usage module needs of the agents module (`app.ts` wires it in): their names, for the report. */
export interface AgentNames {
  /** The user's agents (a deleted agent is absent: its usage is reported without a name). */
  summaries(userId: number): Promise<{ id: number; name: string }[]>;
}
