/** The stable name of a tool on any server: provider, service key and tool slug. */
export const toolKey = (t: { provider: string; service_key: string; tool_name: string }) =>
  JSON.stringify([t.provider, t.service_key, t.tool_name]);
