import { AGENT_LIMITS } from '@cadre/contract';

export const EMBED_TEXT = {
  title: 'Embed',
  hint: 'Put this agent’s chat on your own website, or use it from an MCP client.',
  originsTitle: 'Allowed origins',
  none: 'No origins yet: no other website can embed this agent’s chat.',
  addLabel: 'Add an allowed origin',
  add: 'Add',
  rule: 'The address of the site, like https://www.example.com: https (http only for localhost), no path.',
  invalid: 'Enter an origin like https://www.example.com: https (http only for localhost), with no path.',
  tooMany: `At most ${AGENT_LIMITS.embedOrigins} origins.`,
  max: AGENT_LIMITS.embedOrigins,
  remove: (origin: string) => `Remove ${origin}`,
  save: 'Update allowed origins',
  saved: 'Allowed origins saved.',
  saveFailed: 'The allowed origins could not be saved. Try again in a moment.',
  hostPage: 'Host page',
  hostPageHint:
    'Loads the chat on your page with a token from your backend, and answers the functions the agent calls on the page.',
  hostBackend: 'Host backend',
  hostBackendHint:
    'Your backend mints a token for each visitor with an API key of scope copilot:mint (keep the key on the server).',
  apiKeysLink: 'Create an API key',
  mcp: 'MCP clients',
  mcpHint: 'The agent as an MCP server, for clients such as Claude or Cursor, with an API key of scope chat.',
  mcpUrl: 'Server URL:',
  copy: (what: string) => `Copy ${what}`,
  copyShort: 'Copy',
  copied: 'Copied',
} as const;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * What a site needs to embed the agent's copilot, and an MCP client to use the agent: the snippets
 * shown in the agent's Embed section, with this server's addresses filled in.
 */
export function embedSnippets(options: {
  chainlitUrl: string;
  apiUrl: string;
  agentId: number;
  agentName: string;
  /** The first allowed origin, else a placeholder. */
  origin?: string;
}) {
  const chainlit = trimSlash(options.chainlitUrl);
  const api = trimSlash(options.apiUrl);
  const origin = options.origin ?? 'https://www.example.com';
  const hostPage = `<script src="${chainlit}/copilot/index.js"></script>
<script>
  // Your backend's route that mints a token for the signed-in visitor (see Host backend).
  fetch('/copilot-token', { method: 'POST' })
    .then((response) => response.json())
    .then(({ copilot_auth_token }) =>
      window.mountChainlitWidget({ chainlitServer: '${chainlit}', accessToken: copilot_auth_token }),
    );
  // Functions the agent may call on this page.
  window.addEventListener('chainlit-call-fn', (event) => {
    const { name, args, callback } = event.detail;
    callback(name === 'get_page_title' ? document.title : \`Unknown function \${name}\`);
  });
</script>`;
  const hostBackend = `curl -X POST '${api}/api/v1/auth/chainlit-copilot-login' \\
  -H "Authorization: Bearer $CADRE_API_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"agent_id": ${options.agentId}, "origin": "${origin}", "end_user": {"id": "<your visitor id>", "display_name": "<their name>"}}'
# => {"copilot_auth_token": "..."}: hand it to the page; it lasts 15 minutes.`;
  const mcpUrl = `${api}/mcp/${options.agentId}`;
  const serverName =
    options.agentName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || `agent-${options.agentId}`;
  const mcpConfig = JSON.stringify(
    {
      mcpServers: {
        [serverName]: { type: 'http', url: mcpUrl, headers: { Authorization: 'Bearer cadre_...' } },
      },
    },
    null,
    2,
  );
  return { hostPage, hostBackend, mcpUrl, mcpConfig };
}
