// Every screen and dialog of the web app, for the gallery (`npm run screens`) and the accessibility
// spec (tests/screens-a11y.spec.ts): how to reach each one from a signed-in page, and the sample
// data they are shown with.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { send, startAgentChat } from './chat.ts';

export interface Screen {
  name: string;
  /** Where to go; a function when it needs the sample data's ids. */
  path: string | ((data: SampleData) => string);
  /** Resolves once the screen shows what it is for (after a dialog or menu is open). */
  ready: (page: Page, mobile: boolean) => Promise<unknown>;
  mobileOnly?: boolean;
  /** A dialog, menu or full-height frame: pictured as the viewport shows it, not as the whole page. */
  overlay?: boolean;
  /** A screen seen before signing in: shown in a fresh context with no session. */
  signedOut?: boolean;
}

export interface SampleData {
  agentId: number;
  serviceId: number;
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
export async function createSampleData(page: Page): Promise<SampleData> {
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
      await page.getByRole('group', { name: 'Icon' }).getByRole('button', { name: agent.icon }).click();
    if (agent.color)
      await page.getByRole('group', { name: 'Colour' }).getByRole('button', { name: agent.color }).click();
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
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.waitForURL(/\/agents\/\d+\/edit$/);
  const agentId = Number(/agents\/(\d+)\/edit/.exec(page.url())?.[1]);

  await page.goto('/services');
  const notes = page.getByRole('listitem', { name: 'Notes', exact: true });
  await notes.getByRole('button', { name: 'Disconnect Service Notes' }).click();
  await page
    .getByRole('alertdialog', { name: 'Disconnect Notes?' })
    .getByRole('button', { name: 'Disconnect' })
    .click();
  await visible(notes.getByRole('button', { name: 'Register Service Notes' }));
  return { agentId, serviceId };
}

export const SCREENS: Screen[] = [
  {
    name: 'access-code',
    path: '/info',
    signedOut: true,
    ready: (page) => visible(page.getByText('Please enter the code shared with you')),
  },
  {
    name: 'info',
    path: '/info',
    ready: (page) => visible(page.getByRole('heading', { level: 1 })),
  },
  {
    name: 'agents',
    path: '/agents',
    ready: (page) => visible(page.getByTestId('agent-row')),
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
    name: 'not-found',
    path: '/no-such-page',
    ready: (page) => visible(page.getByText('Page not found.')),
  },
];

export const VIEWPORTS = [
  { label: 'desktop', mobile: false, viewport: { width: 1280, height: 800 } },
  { label: 'mobile', mobile: true, viewport: { width: 375, height: 812 } },
] as const;

export const SCHEMES = ['light', 'dark'] as const;

export const pathOf = (screen: Screen, data: SampleData) =>
  typeof screen.path === 'string' ? screen.path : screen.path(data);

/** Opens a screen and waits until it is settled: loading states gone, animations finished. */
export async function show(page: Page, screen: Screen, data: SampleData, mobile: boolean): Promise<void> {
  await page.goto(pathOf(screen, data));
  await screen.ready(page, mobile);
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
}

/** axe's serious and critical violations on the page as it is (WCAG 2.x A/AA and best practices). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} [${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(' '))
          .join(', ')}]`,
    );
}

/** The horizontal overflow of the page at its viewport (0 when nothing scrolls sideways). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
