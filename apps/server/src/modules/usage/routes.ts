import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorSchema,
  USAGE_GROUPS,
  USAGE_MAX_DAYS,
  usageQuerySchema,
  usageReportSchema,
  validationErrorSchema,
  type UsageGroup,
  type UsageQuery,
  type UsageReport,
} from '@cadre/contract';
import type { AgentNames } from './ports.ts';
import { ValidationFailure } from '../../http/errors.ts';
import { operations } from '../../http/openapi.ts';
import type { UsageService } from './service.ts';

const op = operations('usage');
const DAY_MS = 86_400_000;
const errors = { 401: errorSchema, 422: validationErrorSchema };

/** The report's days and groups from the query: the last 30 days and `day` when not given. */
function rangeOf(query: UsageQuery, today: string): { from: string; to: string; groupBy: UsageGroup[] } {
  const to = query.to ?? today;
  const from = query.from ?? new Date(Date.parse(to) - 29 * DAY_MS).toISOString().slice(0, 10);
  const bad = (field: string, msg: string) =>
    new ValidationFailure([{ loc: ['querystring', field], msg, type: 'value_error' }]);
  if (from > to) throw bad('from', 'must not be after to');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > USAGE_MAX_DAYS) {
    throw bad('from', `must be at most ${USAGE_MAX_DAYS} days before to`);
  }
  const asked = new Set((query.group_by ?? 'day').split(','));
  return { from, to, groupBy: USAGE_GROUPS.filter((g) => asked.has(g)) };
}

const CSV_COLUMNS = [
  'day',
  'agent_id',
  'agent_name',
  'model',
  'turns',
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'estimated',
  'cost',
  'tool_calls',
  'errors',
] as const;

/**
 * The report as CSV, one line per group and its header. A cell that a spreadsheet would read as a
 * formula (an agent named `=HYPERLINK(…)`) is escaped by the library.
 */
export function usageCsv(report: UsageReport): string {
  return stringify(
    report.rows.map((row) => ({ ...row, estimated: row.estimated ? 'yes' : 'no' })),
    { header: true, columns: [...CSV_COLUMNS], escape_formulas: true, cast: { number: String } },
  );
}

/** `GET /api/v1/usage` and `/usage/csv`: the caller's own runs only (the owner is in every query). */
export const usageRoutes: FastifyPluginAsyncZod<{
  usage: UsageService;
  agents: AgentNames;
}> = async (app, { usage, agents }) => {
  const report = (userId: number, query: UsageQuery) =>
    usage.report(userId, agents, rangeOf(query, usage.today()));

  app.get(
    '/api/v1/usage',
    op('getUsage', "The caller's tokens, cost, turns, tool calls and errors, per day, agent and model", {
      querystring: usageQuerySchema,
      response: { 200: usageReportSchema, ...errors },
    }),
    async (request) => report(request.user.id, request.query),
  );

  app.get(
    '/api/v1/usage/csv',
    op('downloadUsageCsv', 'The same report as a CSV file', {
      querystring: usageQuerySchema,
      produces: ['text/csv'],
      response: { 200: z.string().describe('CSV with a header line'), ...errors },
    }),
    async (request, reply) => {
      const body = usageCsv(await report(request.user.id, request.query));
      const { from, to } = rangeOf(request.query, usage.today());
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cadre-usage-${from}-to-${to}.csv"`)
        .send(body);
    },
  );
};
