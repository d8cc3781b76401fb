/** What the users module needs of the usage module (`app.ts` wires it in). */
export interface MonthUsage {
  /** Each of these users' tokens and cost (USD; null: no price known) this UTC month. */
  monthTotals(userIds: number[]): Promise<Map<number, { tokens: number; cost: number | null }>>;
}
