// Every screen and dialog of the web app, for the gallery (`npm run screens`) and the accessibility
// spec (tests/screens-a11y.spec.ts): how to reach each one from a signed-in page, and the sample
// data they are shown with.
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { send, startAgentChat } from './chat.ts';
import { OTHER_HOST } from './chromium.ts';

export interface Screen {
  name: string;
  /** Where to go; a function when it needs the sample data's ids or the server's origin. */
  path: string | ((data: SampleData) => string);
  /** Before the page is opened (an API answer held or replaced); what it returns undoes it. */
  prepare?: (page: Page) => Promise<(() => Promise<void>) | void>;
  /** Resolves once the screen shows what it is for (after a dialog or menu is open). */
  ready: (page: Page, mobile: boolean, data: SampleData) => Promise<unknown>;
  /** After the screen was pictured and checked: undoes what `ready` changed in the sample data. */
  leave?: (page: Page) => Promise<unknown>;
  mobileOnly?: boolean;
  /** A dialog, menu or full-height frame: pictured as the viewport shows it, not as the whole page. */
  overlay?: boolean;
  /** A screen seen before signing in: shown in a fresh context with no session. */
  signedOut?: boolean;
  /** Busy on purpose (a redirect held midway): not waited on to settle. */
  busy?: boolean;
  /**
   * Takes the colour scheme when it loads and does not follow a change (the copilot widget): opened
   * again for each scheme rather than switched on the open page.
   */
  schemeAtLoad?: boolean;
}

export interface SampleData {
  agentId: number;
  serviceId: number;
  /** The server's own origin (PUBLIC_URL). */
  origin: string;
  /** The beta access code the server accepts. */
  accessCode: string;
  /** The Mail assistant as its Export downloads it, to import again. */
  exported: string;
}

const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible' });

/** Opens the mobile drawer first when the sidebar is folded away. */
async function sidebar(page: Page, mobile: boolean): Promise<Locator> {
  if (!mobile) return page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByTestId('sidebar-drawer');
  await visible(drawer);
  return drawer;
}

async function accountMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /^Account menu of / }).click();
  const menu = page.getByRole('menu');
  await visible(menu);
  return menu;
}

/** Signed out: the access code, then the built-in provider's sign-in page. */
async function toProviderSignIn(page: Page, data: SampleData) {
  await page.getByLabel('Access Code').fill(data.accessCode);
  await page.getByRole('button', { name: 'Access' }).click();
  await visible(page.getByRole('heading', { name: 'Sign in' }));
}

/** Answers every GET of the agents list with `body` until undone. */
async function replaceAgentsList(page: Page, body: string) {
  // The list itself, with or without its page query (`?limit=50`), not an agent's own routes.
  const url = /\/backend\/api\/v1\/agents\/(\?.*)?$/;
  await page.route(url, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 200, contentType: 'application/json', body })
      : route.fallback(),
  );
  return () => page.unroute(url);
}

const AGENTS = [
  {
    name: 'Mail assistant',
    description: 'Reads my inbox every morning and drafts short replies to the mails that need one.',
    icon: 'Emoji 📬',
    color: 'Colour: blue',
    tools: [['Notes', 'Create note']],
  },
  {
    name: 'Bookkeeper',
    description: 'Adds up receipts and keeps a running total of what was spent this month.',
    icon: 'Generated avatar: beam',
    color: 'Colour: green',
    tools: [
      ['Calculator', 'Add'],
      ['Calculator', 'Multiply'],
    ],
  },
  {
    name: 'Calendar manager',
    description: 'Keeps my calendar tidy: lists, creates and moves events on request.',
    icon: 'Emoji 📅',
    color: 'Colour: purple',
    tools: [],
  },
  {
    name: 'Tech news digest',
    description: 'Summarises the top Hacker News stories and related YouTube videos on a subject.',
    icon: null,
    color: null,
    tools: [],
  },
] as const;

/**
 * Sample data made the way a person makes it, on a signed-in page: Calculator and Notes registered,
 * four agents with icons, colours and tools, a chat turn with one of them, then Notes disconnected so
 * one agent shows a tool that needs reconnecting.
 */
export async function createSampleData(
  page: Page,
  server: { origin: string; accessCode: string },
): Promise<SampleData> {
  for (const service of ['Calculator', 'Notes']) {
    await page.goto('/services');
    const card = page.getByRole('listitem', { name: service, exact: true });
    await card.getByRole('button', { name: `Register Service ${service}` }).click();
    await visible(card.getByText('Connected'));
  }
  const href = await page
    .getByRole('listitem', { name: 'Calculator', exact: true })
    .getByRole('link', { name: 'View Tools of Calculator' })
    .getAttribute('href');
  const serviceId = Number(/services\/(\d+)/.exec(href ?? '')?.[1]);

  for (const agent of AGENTS) {
    await page.goto('/agents/create');
    await page.getByRole('textbox', { name: 'Name' }).fill(agent.name);
    await page.getByRole('textbox', { name: 'Description' }).fill(agent.description);
    if (agent.icon)
      await page.getByRole('radiogroup', { name: 'Icon' }).getByTitle(agent.icon, { exact: true }).click();
    if (agent.color)
      await page.getByRole('radiogroup', { name: 'Colour' }).getByTitle(agent.color, { exact: true }).click();
    for (const [service, tool] of agent.tools) {
      await page
        .getByRole('region', { name: 'Active Services' })
        .getByRole('button', { name: service })
        .click();
      const dialog = page.getByRole('dialog', { name: `Actions for ${service}` });
      await dialog.getByRole('button', { name: `Add ${tool}`, exact: true }).click();
      await visible(dialog.getByRole('button', { name: `Remove ${tool}`, exact: true }));
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/agents\/?$/);
  }
  // One answer with a tool call, so the Usage screen has a day, an agent and a model to show.
  const frame = await startAgentChat(page, 'Bookkeeper');
  await send(frame, 'add 2 and 3');
  await visible(frame.getByTestId('assistant-message').getByText('5'));

  await page.goto('/agents');
  await page.getByRole('button', { name: `Actions for ${AGENTS[0].name}` }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export' }).click(),
  ]);
  const exported = fs.readFileSync((await download.path())!, 'utf8');
  await page.getByRole('button', { name: `Actions for ${AGENTS[0].name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.waitForURL(/\/agents\/\d+\/edit$/);
  const agentId = Number(/agents\/(\d+)\/edit/.exec(page.url())?.[1]);
  // A second version to restore, and a trigger secret to rotate or delete.
  await page.getByRole('textbox', { name: /^Guidelines/ }).fill('Keep replies under five sentences.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL(/\/agents\/?$/);
  await page.goto(`/agents/${agentId}/edit?section=triggers`);
  await page.getByRole('button', { name: 'Create secret' }).click();
  await visible(page.getByRole('button', { name: 'Rotate secret' }));

  // An API key to list.
  await page.goto('/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel('Name').fill('Website copilot');
  await create.getByText(/^copilot:mint/).click();
  await create.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('dialog', { name: 'Your new API key' }).getByRole('button', { name: 'Done' }).click();
  await visible(page.getByRole('row', { name: 'Website copilot' }));

  await page.goto('/services');
  const notes = page.getByRole('listitem', { name: 'Notes', exact: true });
  await notes.getByRole('button', { name: 'Disconnect Service Notes' }).click();
  await page
    .getByRole('alertdialog', { name: 'Disconnect Notes?' })
    .getByRole('button', { name: 'Disconnect' })
    .click();
  await visible(notes.getByRole('button', { name: 'Register Service Notes' }));
  return { agentId, serviceId, exported, ...server };
}

export const SCREENS: Screen[] = [
  {
    name: 'access-code',
    path: '/info',
    signedOut: true,
    ready: (page) => visible(page.getByText('Please enter the code shared with you')),
  },
  {
    name: 'access-code-wrong',
    path: '/info',
    signedOut: true,
    ready: async (page) => {
      await page.getByLabel('Access Code').fill('not-the-code');
      await page.getByRole('button', { name: 'Access' }).click();
      await visible(page.getByText('This code is not right.', { exact: false }));
    },
  },
  {
    name: 'idp-sign-in',
    path: '/info',
    signedOut: true,
    ready: (page, _mobile, data) => toProviderSignIn(page, data),
  },
  {
    name: 'idp-sign-in-refused',
    path: '/info',
    signedOut: true,
    ready: async (page, _mobile, data) => {
      await toProviderSignIn(page, data);
      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await visible(page.getByRole('alert'));
    },
  },
  {
    name: 'idp-sign-up',
    path: '/info',
    signedOut: true,
    ready: async (page, _mobile, data) => {
      await toProviderSignIn(page, data);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await visible(page.getByRole('heading', { name: 'Create an account' }));
    },
  },
  {
    name: 'idp-sign-up-errors',
    path: '/info',
    signedOut: true,
    ready: async (page, _mobile, data) => {
      await toProviderSignIn(page, data);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Email').fill('not an address');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await visible(page.getByText('Please correct the fields marked below.'));
    },
  },
  {
    name: 'other-host',
    path: (data) => `${data.origin.replace('localhost', OTHER_HOST)}/agents`,
    signedOut: true,
    ready: (page) => visible(page.getByRole('heading', { name: /^Open Cadre at / })),
  },
  {
    name: 'info',
    path: '/info',
    ready: (page) => visible(page.getByRole('heading', { level: 1 })),
  },
  {
    name: 'info-ready-assistant',
    path: '/info',
    // As a new account sees it: no agent yet, so the ready assistant is offered.
    prepare: (page) => replaceAgentsList(page, '[]'),
    ready: (page) => visible(page.getByRole('button', { name: 'Start chatting' })),
  },
  {
    name: 'info-delete-question',
    overlay: true,
    path: '/info',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Delete my data' }).click();
      await visible(page.getByRole('dialog', { name: 'Delete my data' }));
    },
  },
  {
    name: 'debug-info',
    path: '/debug_info',
    ready: (page) => visible(page.getByRole('heading', { name: 'Debug' })),
  },
  {
    name: 'agents',
    path: '/agents',
    ready: (page) => visible(page.getByTestId('agent-row')),
  },
  {
    name: 'agents-empty',
    path: '/agents',
    prepare: (page) => replaceAgentsList(page, '[]'),
    ready: (page) => visible(page.getByText('No agents found.')),
  },
  {
    name: 'agents-import-result',
    overlay: true,
    path: '/agents',
    ready: async (page, _mobile, data) => {
      // The exported Mail assistant (its Notes tool needs Notes connected again), plus a tool this
      // server does not offer.
      const document = JSON.parse(data.exported) as { agent: { name: string; tools: unknown[] } };
      document.agent.name = 'Inbox helper';
      document.agent.tools.push({
        provider: 'builtin',
        service_key: 'weather-station',
        tool_name: 'forecast',
        service_name: 'Weather station',
        display_name: 'Forecast',
      });
      await page.getByLabel('Choose an exported agent file (.json)').setInputFiles({
        name: 'mail-assistant.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(document)),
      });
      await visible(page.getByRole('dialog', { name: 'Imported Inbox helper' }));
    },
    // The imported agent goes again, so that every picture shows the same sample data.
    leave: async (page) => {
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Actions for Inbox helper' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Actions for Inbox helper' }).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'agents-tools-dialog',
    overlay: true,
    path: '/agents',
    ready: async (page) => {
      await page.getByRole('button', { name: '1 Tools of Mail assistant' }).click();
      await visible(page.getByRole('dialog', { name: 'Tools of Mail assistant' }));
    },
  },
  {
    name: 'agents-actions-menu',
    overlay: true,
    path: '/agents',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Actions for Bookkeeper' }).click();
      await visible(page.getByRole('menuitem', { name: 'Duplicate' }));
    },
  },
  {
    name: 'agents-delete-question',
    overlay: true,
    path: '/agents',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Actions for Bookkeeper' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await visible(page.getByRole('alertdialog'));
    },
  },
  {
    name: 'agent-create',
    path: '/agents/create',
    ready: (page) => visible(page.getByRole('heading', { name: 'Create Agent' })),
  },
  {
    name: 'agent-create-required',
    path: '/agents/create',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Save' }).click();
      await visible(page.getByText('Give the agent a name.'));
    },
  },
  {
    name: 'agent-create-actions-dialog',
    overlay: true,
    path: '/agents/create',
    ready: async (page) => {
      await page
        .getByRole('region', { name: 'Active Services' })
        .getByRole('button', { name: 'Calculator' })
        .click();
      await visible(
        page.getByRole('dialog', { name: 'Actions for Calculator' }).getByRole('button', { name: 'Add Add' }),
      );
    },
  },
  {
    name: 'agent-edit',
    path: (data) => `/agents/${data.agentId}/edit`,
    ready: (page) => visible(page.getByText('Needs reconnecting')),
  },
  {
    name: 'agent-edit-knowledge',
    path: (data) => `/agents/${data.agentId}/edit?section=knowledge`,
    ready: (page) => visible(page.getByRole('heading', { name: 'Knowledge files' })),
  },
  {
    name: 'agent-edit-publish',
    path: (data) => `/agents/${data.agentId}/edit?section=publish`,
    ready: (page) => visible(page.getByRole('heading', { name: 'Embed' })),
  },
  {
    name: 'agent-edit-discard-question',
    overlay: true,
    path: (data) => `/agents/${data.agentId}/edit`,
    ready: async (page) => {
      await page.getByRole('textbox', { name: 'Name' }).fill('Mail assistant, renamed');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await visible(page.getByRole('alertdialog'));
    },
  },
  {
    name: 'agent-edit-restore-question',
    overlay: true,
    path: (data) => `/agents/${data.agentId}/edit?section=history`,
    ready: async (page) => {
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Restore version 1?' }));
    },
  },
  {
    name: 'agent-edit-rotate-secret-question',
    overlay: true,
    path: (data) => `/agents/${data.agentId}/edit?section=triggers`,
    ready: async (page) => {
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Rotate the trigger secret?' }));
    },
  },
  {
    name: 'agent-edit-delete-secret-question',
    overlay: true,
    path: (data) => `/agents/${data.agentId}/edit?section=triggers`,
    ready: async (page) => {
      await page.getByRole('button', { name: 'Turn off signed calls' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Turn off signed calls?' }));
    },
  },
  {
    name: 'agent-chat',
    overlay: true,
    path: (data) => `/agents/${data.agentId}/chat`,
    ready: (page) =>
      visible(page.frameLocator('iframe[title="Agent chat"]').getByRole('textbox', { name: 'Message' })),
  },
  {
    name: 'services',
    path: '/services',
    ready: (page) => visible(page.getByTestId('service-card')),
  },
  {
    name: 'services-api-key-dialog',
    overlay: true,
    path: '/services',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Register Service Web Search' }).click();
      await visible(page.getByRole('dialog', { name: 'Enter API Key' }));
    },
  },
  {
    name: 'services-disconnect-question',
    overlay: true,
    path: '/services',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Disconnect Service Calculator' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Disconnect Calculator?' }));
    },
  },
  {
    name: 'services-custom-mcp-dialog',
    overlay: true,
    path: '/services',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Add your own MCP server' }).click();
      await visible(page.getByRole('dialog', { name: 'Add your own MCP server' }));
    },
  },
  {
    name: 'services-custom-mcp-refused',
    overlay: true,
    path: '/services',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Add your own MCP server' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add your own MCP server' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Local tools');
      await dialog.getByLabel('Server URL (https)').fill('http://127.0.0.1:9/mcp');
      await dialog.getByRole('button', { name: 'Add Server' }).click();
      await visible(dialog.locator('[aria-invalid="true"]'));
    },
  },
  {
    name: 'service-tools',
    path: (data) => `/services/${data.serviceId}/actions`,
    ready: (page) => visible(page.getByRole('searchbox', { name: 'Search tools...' })),
  },
  {
    name: 'usage',
    path: '/usage',
    ready: (page) => visible(page.getByRole('img', { name: 'Input and output tokens by day' })),
  },
  {
    name: 'user-menu',
    overlay: true,
    path: '/info',
    ready: (page) => accountMenu(page),
  },
  {
    name: 'your-data-dialog',
    overlay: true,
    path: '/info',
    ready: async (page) => {
      const menu = await accountMenu(page);
      await menu.getByRole('menuitem', { name: 'Your data' }).click();
      await visible(page.getByRole('dialog', { name: 'Your data' }));
    },
  },
  {
    name: 'api-keys',
    path: '/api-keys',
    ready: (page) => visible(page.getByRole('row', { name: 'Website copilot' })),
  },
  {
    name: 'api-keys-create-dialog',
    overlay: true,
    path: '/api-keys',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Create API key' }).click();
      await visible(
        page.getByRole('dialog', { name: 'Create API key' }).getByRole('checkbox', { name: 'Bookkeeper' }),
      );
    },
  },
  {
    name: 'api-keys-create-errors',
    overlay: true,
    path: '/api-keys',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create API key' });
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await visible(dialog.getByText('Choose at least one scope.'));
    },
  },
  {
    name: 'api-keys-shown-once',
    overlay: true,
    path: '/api-keys',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create API key' });
      await dialog.getByLabel('Name').fill('Deploy script');
      await dialog.getByText(/^chat/).click();
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await visible(page.getByRole('dialog', { name: 'Your new API key' }).getByTestId('new-api-key'));
    },
    // The key goes again, so that every picture shows the same sample data.
    leave: async (page) => {
      await page
        .getByRole('dialog', { name: 'Your new API key' })
        .getByRole('button', { name: 'Done' })
        .click();
      await page.getByRole('button', { name: 'Revoke Deploy script' }).click();
      await page
        .getByRole('alertdialog', { name: 'Revoke API key' })
        .getByRole('button', { name: 'Revoke' })
        .click();
      await page.getByRole('row', { name: 'Deploy script' }).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'api-keys-revoke-question',
    overlay: true,
    path: '/api-keys',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Revoke Website copilot' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Revoke API key' }));
    },
  },
  {
    name: 'logout-question',
    overlay: true,
    path: '/info',
    ready: async (page, mobile) => {
      // On a wide screen Log Out sits at the foot of the sidebar; on a phone, in the drawer.
      const within = mobile ? await sidebar(page, true) : page;
      await within.getByRole('button', { name: 'Log Out' }).click();
      await visible(page.getByRole('alertdialog', { name: 'Logout Confirmation' }));
    },
  },
  {
    name: 'drawer',
    overlay: true,
    path: '/info',
    mobileOnly: true,
    ready: (page) => sidebar(page, true),
  },
  {
    name: 'copilot',
    overlay: true,
    schemeAtLoad: true,
    path: '/copilot',
    ready: async (page) => {
      // Opened cold, the page may first ask to sign in (the session is being restored).
      const loaded = page.getByText('Copilot should load in the bottom right.');
      const signIn = page.getByRole('button', { name: 'Sign in' });
      await visible(loaded.or(signIn));
      if (await signIn.isVisible()) await signIn.click();
      await visible(loaded);
      await page.getByRole('button', { name: 'Open the chat' }).click();
      await visible(page.getByTestId('copilot-panel').getByRole('textbox', { name: 'Message' }));
    },
  },
  {
    name: 'demos-invalid',
    path: '/public/demosRedirect?demo=nope',
    ready: (page) => visible(page.getByRole('heading', { name: 'Invalid Demo' })),
  },
  {
    name: 'demos-redirecting',
    path: '/public/demosRedirect?demo=vcdemo',
    signedOut: true,
    busy: true,
    // The demo login is held, so that 'Redirecting...' stays (the context is closed afterwards).
    prepare: async (page) => {
      await page.route('**/demos/login', () => new Promise<void>(() => {}));
    },
    ready: (page) => visible(page.getByText('Redirecting...')),
  },
  {
    name: 'demos-chat',
    path: '/public/demosRedirect?demo=vcdemo',
    signedOut: true,
    overlay: true,
    ready: async (page) => {
      await page.waitForURL(/\/demos\/$/);
      await page.getByRole('button', { name: 'Search startups in fintech' }).click();
      await visible(page.getByText('Novapay'));
      // The answer is complete (no Stop button) and listed among the conversations.
      await visible(page.getByRole('button', { name: 'Regenerate' }));
    },
  },
  {
    name: 'demos-no-session',
    path: '/demos/',
    signedOut: true,
    ready: (page) => visible(page.getByRole('link', { name: 'Try the VC Analyst demo' })),
  },
  {
    name: 'not-found',
    path: '/no-such-page',
    ready: (page) => visible(page.getByText('Page not found.')),
  },
  {
    name: 'route-error',
    path: '/agents',
    // An answer the page cannot read: the route's error screen, with the error shown.
    prepare: (page) => replaceAgentsList(page, '{"unexpected": true}'),
    ready: async (page) => {
      await page.getByRole('button', { name: 'Show Error' }).click();
      await visible(page.getByTestId('route-error-message'));
    },
  },
];

export const VIEWPORTS = [
  { label: 'desktop', mobile: false, viewport: { width: 1280, height: 800 } },
  { label: 'mobile', mobile: true, viewport: { width: 375, height: 812 } },
] as const;

export const SCHEMES = ['light', 'dark'] as const;

export type Scheme = (typeof SCHEMES)[number];

/**
 * One of the widths a screen is shown at, in one colour scheme; `switched` when the scheme was
 * switched on the open page rather than the page loaded in it.
 */
export type Setting = (typeof VIEWPORTS)[number] & { scheme: Scheme; switched: boolean };

export const settingName = ({ label, viewport, scheme }: Setting) =>
  `${label} ${viewport.width} px, ${scheme}`;

export const pathOf = (screen: Screen, data: SampleData) =>
  typeof screen.path === 'string' ? screen.path : screen.path(data);

/** Waits until the finite animations and transitions of every document of the page are over. */
async function settle(page: Page) {
  for (const frame of page.frames())
    await frame
      // Finite ones only: a spinner's never finishes.
      .evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      )
      // A frame that went away meanwhile has nothing left to settle.
      .catch(() => undefined);
}

/**
 * Opens a screen and waits until it is settled: loading states gone, animations finished. Returns
 * what undoes its `prepare`.
 */
export async function show(
  page: Page,
  screen: Screen,
  data: SampleData,
  mobile: boolean,
): Promise<() => Promise<void>> {
  const undo = (await screen.prepare?.(page)) ?? (async () => {});
  await page.goto(pathOf(screen, data));
  await screen.ready(page, mobile, data);
  if (!screen.busy)
    await page
      .locator('[aria-busy="true"]')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => {});
  await settle(page);
  return undo;
}

/**
 * Turns the system colour scheme to `scheme` on a page already open and waits until every document
 * of it shows the scheme: matchMedia answers it, and wherever the scheme is a class (the web app's and
 * the chat frame's <html>, which follow the system through matchMedia; the copilot widget's shadow
 * root, which does not) the class has changed, and the colour transitions this starts are over. The
 * server's own pages (sign-in, the 421 page) style from the media query alone, which applies at once.
 */
export async function switchScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  for (const frame of page.frames())
    await frame
      .waitForFunction(
        (scheme) => {
          if (matchMedia('(prefers-color-scheme: dark)').matches !== (scheme === 'dark')) return false;
          const widget = document
            .querySelector('#chainlit-copilot')
            ?.shadowRoot?.querySelector('#cl-shadow-root');
          return [document.documentElement, widget]
            .filter((element) => element?.matches('.light, .dark'))
            .every((element) => element!.classList.contains(scheme));
        },
        scheme,
        { timeout: 5_000 },
      )
      .catch((error: Error) => {
        throw new Error(`${frame.url()} did not turn ${scheme}: ${error.message.split('\n')[0]}`);
      });
  await settle(page);
}

/**
 * Shows a screen at every width and in every colour scheme, and returns what `check` finds in each,
 * named by the setting (or that the screen could not be shown there). Each width is a page load of
 * its own, as what a screen shows may depend on the width it opened at (`ready` is told; the mobile
 * sidebar is a drawer); the schemes are switched on the open page (`switchScheme`), unless the screen
 * takes its scheme when it loads (`schemeAtLoad`). The first load of a screen starts light and the
 * next dark, so that each scheme is also seen loaded. A screen before sign-in gets a context of its
 * own, with no session, for each load; the others are shown on the signed-in `page`.
 */
export async function checkEverySetting(
  screen: Screen,
  { browser, page, baseURL, data }: { browser: Browser; page: Page; baseURL: string; data: SampleData },
  check: (page: Page, setting: Setting) => Promise<string[]>,
): Promise<string[]> {
  const found: string[] = [];
  const widths = VIEWPORTS.filter(({ mobile }) => mobile || !screen.mobileOnly);
  for (const [index, width] of widths.entries()) {
    const schemes = index % 2 === 0 ? SCHEMES : [...SCHEMES].reverse();
    const loads = screen.schemeAtLoad ? schemes.map((scheme) => [scheme]) : [schemes];
    for (const load of loads) {
      const context = screen.signedOut
        ? await browser.newContext({ baseURL, viewport: width.viewport, reducedMotion: 'reduce' })
        : undefined;
      const target = context ? await context.newPage() : page;
      let setting: Setting = { ...width, scheme: load[0], switched: false };
      try {
        await target.setViewportSize(width.viewport);
        await target.emulateMedia({ colorScheme: setting.scheme });
        const undo = await show(target, screen, data, width.mobile);
        try {
          for (const scheme of load) {
            setting = { ...width, scheme, switched: scheme !== load[0] };
            if (setting.switched) await switchScheme(target, scheme);
            for (const problem of await check(target, setting))
              found.push(`${settingName(setting)}: ${problem}`);
          }
          await screen.leave?.(target);
        } finally {
          await undo();
        }
      } catch (error) {
        found.push(`${settingName(setting)}: could not be shown or checked: ${firstLines(error as Error)}`);
      } finally {
        await context?.close();
      }
    }
  }
  return found;
}

/** An error's message without Playwright's call log, which the trace keeps, or its colours. */
const firstLines = (error: Error) =>
  stripVTControlCharacters(error.message)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && line !== 'Call log:')
    .slice(0, 2)
    .join(' ');

/**
 * What the accessibility checks find on the page as it is: axe's findings, then sideways scrolling.
 * After a switch of scheme on the open page only the colours changed (the scheme is a class on
 * <html> that only colour tokens depend on, or a media query of colours), so axe checks only the
 * rules that read colours there: the rest saw the same document when it loaded, and each scheme is
 * loaded at one of the widths (`checkEverySetting`), where every rule runs.
 */
export async function accessibilityProblems(page: Page, { switched }: Setting): Promise<string[]> {
  const problems = await seriousViolations(page, switched ? COLOUR_RULES : undefined);
  for (const [where, px] of Object.entries(await sidewaysOverflow(page)))
    problems.push(`${where} scrolls sideways by ${px} px`);
  return problems;
}

const sameOrigin = (url: string, page: string) =>
  url.startsWith('about:') || new URL(url).origin === new URL(page).origin;

/** The axe rules (of those run) whose outcome depends on the colours shown. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe's serious and critical violations on the page as it is (WCAG 2.x A/AA and best practices), or
 * by only the rules named.
 */
export async function seriousViolations(page: Page, rules?: string[]): Promise<string[]> {
  // axe sees that a modal dialog is open (so the page behind it may be aria-hidden while it still
  // holds buttons) only when the page under it is not scrolled: its isModalOpen test misses a
  // dialog opened from further down, as on a phone. The page goes back to the top behind it first.
  await page.evaluate(() => {
    if (document.querySelector('[role=dialog], [role=alertdialog]')) window.scrollTo(0, 0);
  });
  const builder = new AxeBuilder({ page });
  const results = await (
    rules
      ? builder.withRules(rules)
      : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
  )
    // axe's own frame messaging reaches frames of the page's origin (the chat frame) and takes
    // about half the time of its default, which gathers each frame's results in a blank page it
    // opens; a page with a frame of another origin keeps the default, which reaches that one too.
    .setLegacyMode(page.frames().every((frame) => sameOrigin(frame.url(), page.url())))
    .analyze();
  const found = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} [${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(' '))
          .join(', ')}]`,
    );
  // An empty or blocked page breaks no rule because it passes none: axe must have looked at something.
  if (!rules && results.passes.length <= 10)
    found.push(`axe passed only ${results.passes.length} rules: is the page blank?`);
  return found;
}

/**
 * How far each document of the page scrolls sideways at its viewport, the chat frame's included:
 * `{ url: px }` for those that do (empty when none does).
 */
export async function sidewaysOverflow(page: Page): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const frame of page.frames()) {
    const overflow = await frame
      .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      .catch(() => 0);
    if (overflow > 0) found[frame === page.mainFrame() ? 'page' : frame.url()] = overflow;
  }
  return found;
}
