import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { createApiKey } from '../support/api-keys.ts';
import { createAgent } from '../support/chat.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * The copilot on another site (issue 18): a host site on another port of this machine mints a
 * token through its own backend with an API key and loads the widget; the agent answers and calls
 * a function of the host page. A site whose origin the owner did not list is refused by CORS.
 */

const HOST_ANSWER = 'The host page title is Shop front';

interface HostSite {
  origin: string;
  close: () => Promise<void>;
}

/**
 * A host site: its page loads the widget from Cadre, and its backend (`POST /copilot-token`) mints
 * a copilot token with the API key for its visitor and `mintOrigin` (its own origin by default).
 */
async function startHostSite(cadre: string, apiKey: string, agentId: number, mintOrigin?: string) {
  let origin = '';
  const page = () => `<!doctype html>
<html><head><title>Shop front</title></head>
<body>
  <h1>Shop front</h1>
  <p id="status">loading</p>
  <script src="${cadre}/chainlit/copilot/index.js"></script>
  <script>
    window.addEventListener('chainlit-call-fn', (event) => {
      const { name, callback } = event.detail;
      callback(name === 'get_page_title' ? ${JSON.stringify(HOST_ANSWER)} : 'unknown function');
    });
    fetch('/copilot-token', { method: 'POST' })
      .then((response) => response.json())
      .then(({ copilot_auth_token }) => {
        window.copilotToken = copilot_auth_token;
        window.mountChainlitWidget({ chainlitServer: ${JSON.stringify(cadre)}, accessToken: copilot_auth_token });
        document.getElementById('status').textContent = 'mounted';
      });
  </script>
</body></html>`;
  const server = http.createServer(async (request, response) => {
    if (request.method === 'GET' && request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
      return;
    }
    if (request.method === 'POST' && request.url === '/copilot-token') {
      const minted = await fetch(`${cadre}/backend/api/v1/auth/chainlit-copilot-login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          agent_id: agentId,
          origin: mintOrigin ?? origin,
          end_user: { id: 'shopper-1', display_name: 'Shopper' },
        }),
      });
      response.writeHead(minted.status, { 'content-type': 'application/json' }).end(await minted.text());
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies HostSite;
}

async function createMintingKey(page: Page): Promise<string> {
  await page.goto('/api-keys');
  return createApiKey(page, 'Shop backend', 'copilot:mint');
}

test('the copilot on a page of another origin answers and calls a host-page function; an origin not allowed is refused by CORS', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(page);
  await createAgent(page, 'Shop helper', [], 'Helps shoppers.');
  await pickMenuItem(
    page,
    page.getByRole('button', { name: 'Actions for Shop helper', exact: true }),
    'Edit',
  );
  await expect(page).toHaveURL(/\/agents\/\d+\/edit$/);
  const agentId = Number(/\/agents\/(\d+)\/edit$/.exec(page.url())![1]);
  const key = await createMintingKey(page);

  const allowed = await startHostSite(baseURL!, key, agentId);
  // Mints for the allowed origin, but its page is served from another one.
  const elsewhere = await startHostSite(baseURL!, key, agentId, allowed.origin);
  try {
    // The owner lists the allowed site in the agent's Embed section.
    await page.goto(`/agents/${agentId}/edit?section=publish`);
    const embed = page.getByTestId('agent-embed');
    await expect(embed.getByText(/No origins yet/)).toBeVisible();
    await embed.getByRole('textbox', { name: 'Add an allowed origin' }).fill(allowed.origin);
    await embed.getByRole('button', { name: 'Add', exact: true }).click();
    await embed.getByRole('button', { name: 'Update allowed origins' }).click();
    await expect(page.getByText('Allowed origins saved.').last()).toBeVisible();
    await expect(embed.getByLabel('Host backend', { exact: true })).toContainText(
      `"origin": "${allowed.origin}"`,
    );

    // A visitor of the host site, in a browser context with nothing of Cadre's.
    const visitor = await browser.newContext();
    const host = await visitor.newPage();
    await host.goto(allowed.origin);
    await expect(host.locator('#status')).toHaveText('mounted');
    await host.getByRole('button', { name: 'Open the chat' }).click();
    // The suggested prompt (shown in the empty chat) makes the agent call the page's function.
    await host.getByRole('button', { name: 'Call the host function "get_page_title"' }).click();
    await expect(host.getByText(HOST_ANSWER).last()).toBeVisible();
    const box = host.getByRole('textbox', { name: 'Message' });
    await box.fill('hello');
    await box.press('Enter');
    await expect(host.getByTestId('user-message').last()).toContainText('hello');
    await expect(host.getByTestId('assistant-message').last()).toContainText('offline model');

    // The same kind of token used by a page of a site the owner did not list: the browser refuses.
    const other = await visitor.newPage();
    await other.goto(elsewhere.origin);
    await expect(other.locator('#status')).toHaveText('mounted');
    const outcome = await other.evaluate(async (cadre) => {
      const token = (window as unknown as { copilotToken: string }).copilotToken;
      try {
        const response = await fetch(`${cadre}/chainlit/threads`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return `answered ${response.status}`;
      } catch (error) {
        return `refused: ${(error as Error).name}`;
      }
    }, baseURL!);
    expect(outcome).toBe('refused: TypeError');
    await other.getByRole('button', { name: 'Open the chat' }).click();
    await expect(other.getByTestId('assistant-message')).toHaveCount(0);
    await visitor.close();
  } finally {
    await allowed.close();
    await elsewhere.close();
  }
});
