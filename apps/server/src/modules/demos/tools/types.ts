import { z } from 'zod';
import type { Db } from '../../../db/database.ts';
import { inputJsonSchema, type ActionDefinition, type ActionEffect } from '../../tools/index.ts';

/** What a demo tool runs with: the database and the visitor's own demo user. */
export interface DemoToolContext {
  db: Db;
  userId: number;
  now: () => Date;
}

/** A demo tool as the demo provider lists and runs it. */
export interface DemoTool {
  definition: ActionDefinition;
  run(ctx: DemoToolContext, args: Record<string, unknown>): Promise<string>;
  /**
   * Why `run` would refuse these arguments, asked before the visitor is asked to approve the call
   * (chat/runtime/ports.ts `precheck`); undefined when it would not, or cannot tell yet.
   */
  precheck(ctx: DemoToolContext, args: Record<string, unknown>): Promise<string | undefined>;
}

/** Thrown for input the tool cannot use; the message is shown to the model and the user. */
export class DemoInputError extends Error {}

/**
 * Declares a demo tool as built-in actions are declared (`defineAction`): a zod input schema, which
 * the model sees as JSON Schema and which checks the arguments before `run` gets them.
 */
export function defineDemoTool<S extends z.ZodType>(tool: {
  name: string;
  displayName: string;
  description: string;
  effect: ActionEffect;
  input: S;
  run(input: z.output<S>, ctx: DemoToolContext): Promise<string>;
  /** The refusals `run` would make, checked without changing anything; throws DemoInputError. */
  check?(input: z.output<S>, ctx: DemoToolContext): Promise<void>;
}): DemoTool {
  const { input, run, check, ...definition } = tool;
  return {
    definition: { ...definition, inputSchema: inputJsonSchema(input) },
    async run(ctx, args) {
      const parsed = input.safeParse(args);
      if (!parsed.success) throw new DemoInputError(z.prettifyError(parsed.error));
      return run(parsed.data, ctx);
    },
    async precheck(ctx, args) {
      const parsed = input.safeParse(args);
      if (!check || !parsed.success) return undefined;
      try {
        await check(parsed.data, ctx);
        return undefined;
      } catch (error) {
        if (error instanceof DemoInputError) return error.message;
        throw error;
      }
    },
  };
}

/** Free text from the model: trimmed, and cut rather than refused when it runs long. */
export const text = () =>
  z
    .string()
    .trim()
    .overwrite((value) => value.slice(0, 2000));
