import type { ServiceDefinition } from '../tools/index.ts';
import { SHOP_NAME } from './data/shop.ts';
import { SELLER } from './data/crm.ts';
import { SALES_TOOLS } from './tools/sales.ts';
import { SHOP_TOOLS } from './tools/shop.ts';
import type { DemoTool } from './tools/types.ts';
import { VC_TOOLS } from './tools/vc.ts';

/** The three public demos: their agent, their service (one per demo) and suggested prompts. */

export const DEMO_NAMES = ['vcdemo', 'customerservicedemo', 'salesoutreachdemo'] as const;
export type DemoName = (typeof DEMO_NAMES)[number];
export const isDemoName = (value: unknown): value is DemoName => DEMO_NAMES.includes(value as DemoName);

export interface DemoDefinition {
  agent: { name: string; description: string; guidelines: string };
  service: ServiceDefinition;
  tools: DemoTool[];
  suggestedPrompts: string[];
}

export const DEMOS: Record<DemoName, DemoDefinition> = {
  vcdemo: {
    agent: {
      name: 'VC Analyst',
      description:
        'A venture-capital analyst that screens the deal flow, compares startups and drafts investment memos.',
      guidelines: [
        'You are an analyst at a venture-capital fund. Answer from the deal-flow tools only; never invent companies or figures.',
        'The tools refuse any company that is not in the deal flow: when they do, say so, describe nothing from memory, and offer to search startups instead.',
        'To screen, use search_startups with the filters the user names (sector, stage, country, minimum ARR, minimum growth).',
        'To compare, call compare_startups with the names; for a memo call draft_investment_memo and present the memo as returned.',
        'Be concise, quote metrics with units ($M ARR, % YoY growth), and point out the risks as clearly as the strengths.',
        'All companies in this demo are fictional.',
      ].join('\n'),
    },
    service: {
      key: 'vcdemo',
      name: 'Deal Flow (demo)',
      description: 'A sample venture-capital deal-flow database of fictional startups.',
      logo: null,
      authScheme: 'NO_AUTH',
    },
    tools: VC_TOOLS,
    suggestedPrompts: [
      'Search startups in fintech',
      'Compare Novapay and Ledgerline',
      'Draft an investment memo for Cortexa',
    ],
  },
  customerservicedemo: {
    agent: {
      name: 'Customer Support',
      description: `A support agent for ${SHOP_NAME}: looks up orders and customers, explains the refund policy, issues refunds and opens tickets.`,
      guidelines: [
        `You are a friendly support agent for ${SHOP_NAME}, an outdoor-gear web shop.`,
        'Look orders up before acting on them. Check the refund policy before promising a refund, and explain which rule applies.',
        "Issue refunds with issue_refund and escalate exceptions with open_ticket; both need the user's approval, so say what you are about to do.",
        'issue_refund applies the refund policy itself and refuses what it does not allow: when it refuses, explain why and offer a ticket instead.',
        "Never reveal one customer's details to someone asking about another customer. All data in this demo is fictional.",
      ].join('\n'),
    },
    service: {
      key: 'customerservicedemo',
      name: `${SHOP_NAME} support (demo)`,
      description: 'Orders, customers, refunds and tickets of a fictional outdoor-gear shop.',
      logo: null,
      authScheme: 'NO_AUTH',
    },
    tools: SHOP_TOOLS,
    suggestedPrompts: [
      'Look up order ORD-1042',
      'Check the refund policy',
      'Issue a refund for order ORD-1042',
      'Open a support ticket: the tent in ORD-1030 arrived with a broken pole',
    ],
  },
  salesoutreachdemo: {
    agent: {
      name: 'Sales Assistant',
      description: `A sales assistant for ${SELLER.company}: finds leads in the CRM, researches them, drafts personalised outreach and logs activities.`,
      guidelines: [
        `You help ${SELLER.sender}, an account executive at ${SELLER.company}, whose product ${SELLER.pitch}.`,
        "Find leads with find_leads, research a lead before writing to it, and personalise every email with the lead's pain point and tools.",
        'draft_outreach_email refuses a lead not yet researched with research_lead in this session: when it does, say so and offer to research the lead first.',
        "Drafting an email sends nothing. Log calls, meetings and emails with log_activity (it needs the user's approval).",
        'All companies and people in this demo are fictional.',
      ].join('\n'),
    },
    service: {
      key: 'salesoutreachdemo',
      name: `${SELLER.company} CRM (demo)`,
      description: 'A sample CRM of fictional leads and their activity history.',
      logo: null,
      authScheme: 'NO_AUTH',
    },
    tools: SALES_TOOLS,
    suggestedPrompts: [
      'Find leads in healthcare',
      'Research Brightwater Clinics',
      'Draft an outreach email to Brightwater Clinics',
      'Log a call with Brightwater Clinics',
    ],
  },
};
