import type { Config } from '../../../../config.ts';

export type McpLimits = Config['tools']['mcpLimits'];

/**
 * What the user (and the model) read when an MCP server's answer passes a limit (R11): the limit,
 * its value and the setting that raises it.
 */
export function limitMessages(limits: McpLimits) {
  return {
    toolCount: `The MCP server offers more than ${limits.maxTools} tools, the most Cadre accepts (MCP_MAX_TOOLS); nothing was added`,
    toolList: `The MCP server's list of tools is larger than ${limits.maxToolListBytes} bytes, the most Cadre accepts (MCP_MAX_TOOL_LIST_BYTES); nothing was added`,
    result: `The MCP tool's answer is larger than ${limits.maxResultBytes} bytes, the most Cadre accepts (MCP_MAX_RESULT_BYTES); it was not used`,
  };
}
