import type { Db } from '../../../db/database.ts';
import type { ActionDefinition } from '../../tools/provider.ts';

/** What a demo tool runs with: the database and the visitor's own demo user. */
export interface DemoToolContext {
  db: Db;
  userId: number;
  now: () => Date;
}

export interface DemoTool {
  definition: ActionDefinition;
  run(ctx: DemoToolContext, args: Record<string, unknown>): Promise<string>;
}

/** Thrown for input the tool cannot use; the message is shown to the model and the user. */
export class DemoInputError extends Error {}

export const str = (args: Record<string, unknown>, key: string): string | undefined => {
  const value = args[key];
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 2000) : undefined;
};

export const num = (args: Record<string, unknown>, key: string): number | undefined => {
  const value = args[key];
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export const oneOf = <T extends string>(args: Record<string, unknown>, key: string, values: readonly T[]) => {
  const value = str(args, key)?.toLowerCase();
  return value === undefined ? undefined : values.find((v) => v.toLowerCase() === value);
};
