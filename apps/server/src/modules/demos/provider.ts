import type { Db } from '../../db/database.ts';
import type { ToolProvider, ToolResult } from '../tools/index.ts';
import { DEMOS, isDemoName } from './catalog.ts';
import { DemoInputError } from './tools/types.ts';

/**
 * The `demo` tool provider: one service per demo over the shipped sample data. Its services are
 * created per visitor (owned by the demo user) rather than synced into the shared catalog, so real
 * users never see them; it needs no connection.
 */
export function createDemoToolProvider(deps: { db: Db; now: () => Date }): ToolProvider & {
  precheck(
    userId: number,
    serviceKey: string,
    actionName: string,
    args: unknown,
  ): Promise<string | undefined>;
} {
  const find = (serviceKey: string, actionName: string) =>
    isDemoName(serviceKey)
      ? DEMOS[serviceKey].tools.find((t) => t.definition.name === actionName)
      : undefined;
  const argsOf = (args: unknown) =>
    args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return {
    /** Why the tool would refuse these arguments (asked before an approval card); see DemoTool. */
    async precheck(userId, serviceKey, actionName, args) {
      const tool = find(serviceKey, actionName);
      return tool?.precheck({ db: deps.db, userId, now: deps.now }, argsOf(args));
    },
    id: 'demo',
    async listServices() {
      return Object.values(DEMOS).map((d) => d.service);
    },
    async listActions(service) {
      return isDemoName(service.key) ? DEMOS[service.key].tools.map((t) => t.definition) : [];
    },
    async connect() {
      return { status: 'ACTIVE' };
    },
    async disconnect() {},
    async execute(ctx, service, action, args): Promise<ToolResult> {
      const tool = find(service.key, action.name);
      if (!tool) return { ok: false, error: 'This demo tool does not exist.', code: 'not_found' };
      try {
        return {
          ok: true,
          data: await tool.run({ db: deps.db, userId: ctx.userId, now: deps.now }, argsOf(args)),
        };
      } catch (err) {
        if (err instanceof DemoInputError) return { ok: false, error: err.message, code: 'invalid_input' };
        throw err;
      }
    },
  };
}
