import { dynamicTool, jsonSchema } from 'ai';
import {
  HOST_FUNCTION_DESCRIPTION,
  type HostFunctionBridge,
  type HostFunctionCallRequest,
} from '../host-functions.ts';

/**
 * The built-in tool the runtime adds for copilot runs (only when the principal came in with a
 * copilot token): the model names a function of the page and its arguments.
 */
export function createHostFunctionTool(
  bridge: HostFunctionBridge,
  context: Omit<HostFunctionCallRequest, 'name' | 'args'>,
) {
  return dynamicTool({
    description: HOST_FUNCTION_DESCRIPTION,
    inputSchema: jsonSchema<{ name: string; args?: Record<string, unknown> }>({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The function name the page handles, e.g. get_page_title.' },
        args: { type: 'object', description: 'The arguments.' },
      },
      required: ['name'],
      additionalProperties: false,
    }),
    execute: async (input) => {
      const { name, args } = input as { name: string; args?: Record<string, unknown> };
      const outcome = await bridge.call({ ...context, name, args: args ?? {} });
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.result;
    },
  });
}
