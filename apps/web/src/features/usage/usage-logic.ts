import type { UsageReport, UsageRow } from './api/usage-api';

/** The periods the screen offers, in days up to today (UTC, as the server counts). */
export const PERIODS = [
  { value: 7, label: 'Last 7 days' },
  { value: 30, label: 'Last 30 days' },
  { value: 90, label: 'Last 90 days' },
] as const;
export type PeriodDays = (typeof PERIODS)[number]['value'];

/** What the rows are grouped by on the screen (one at a time). */
export const GROUPS = [
  { value: 'day', label: 'By day' },
  { value: 'agent', label: 'By agent' },
  { value: 'model', label: 'By model' },
] as const;
export type Grouping = (typeof GROUPS)[number]['value'];

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The report's query for a period ending today and a grouping. */
export function usageQuery(days: PeriodDays, groupBy: Grouping, now = Date.now()) {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now), group_by: groupBy };
}

export const DELETED_AGENT = 'Deleted agent';

/** The name a row goes by in the chart and the table. */
export function rowLabel(row: UsageRow, groupBy: Grouping): string {
  if (groupBy === 'day') return row.day ?? '';
  if (groupBy === 'agent') return row.agent_name ?? `${DELETED_AGENT} #${row.agent_id}`;
  return row.model ?? '';
}

/** A group with nothing in it. */
export const EMPTY_COUNTS = {
  turns: 0,
  input_tokens: 0,
  output_tokens: 0,
  total_tokens: 0,
  estimated: false,
  cost: null,
  tool_calls: 0,
  errors: 0,
};

/** By day, every day of the period gets a row, so the chart's days are evenly spaced. */
export function rowsForScreen(report: UsageReport, groupBy: Grouping): UsageRow[] {
  if (groupBy !== 'day') return report.rows;
  const byDay = new Map(report.rows.map((r) => [r.day, r]));
  const rows: UsageRow[] = [];
  for (let ms = Date.parse(report.from); ms <= Date.parse(report.to); ms += DAY_MS) {
    const day = isoDay(ms);
    rows.push(byDay.get(day) ?? { ...EMPTY_COUNTS, day, agent_id: null, agent_name: null, model: null });
  }
  return rows;
}

const integer = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => integer.format(n);

/** Costs are in the operator's currency, often fractions of a cent: up to six decimals. */
export const formatCost = (cost: number | null) =>
  cost === null ? '—' : cost.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The file the CSV download is saved as. */
export const csvFileName = (query: { from: string; to: string }) =>
  `cadre-usage-${query.from}-to-${query.to}.csv`;
