import { z } from 'zod';
import {
  ACTIVITY_TYPES,
  INDUSTRIES,
  LEAD_STAGES,
  LEADS,
  REGIONS,
  SELLER,
  SIZES,
  type Lead,
} from '../data/crm.ts';
import { createDemoRepository } from '../repository.ts';
import { keywordFilter, resolveOne, table } from './text.ts';
import { defineDemoTool, DemoInputError, text, type DemoTool } from './types.ts';

/**
 * The sales assistant's tools over the sample CRM; logging an activity changes the visitor's copy.
 * The prompt's rule "research a lead before writing to it" is kept here: `research_lead` records
 * the lead for this visitor, and `draft_outreach_email` refuses a lead not yet researched.
 */

const TONES = ['friendly', 'formal', 'brief'] as const;
const leadText = (l: Lead) =>
  [
    l.id,
    l.company,
    l.industry,
    l.size,
    l.stage,
    l.region,
    l.city,
    l.contact,
    l.title,
    l.painPoint,
    l.techStack,
  ].join(' ');
const byId = (l: Lead) => l.id;
const byName = (l: Lead) => l.company;
const firstName = (l: Lead) => l.contact.replace(/^Dr\. /, '').split(' ')[0]!;

function requireLead(name: string): Lead {
  const { found, closest } = name ? resolveOne(name, LEADS, byId, byName) : {};
  if (!found)
    throw new DemoInputError(
      `No lead called "${name}" in the CRM${closest ? ` (did you mean ${closest.company}?)` : ''}. ` +
        'Find leads first, then use the company name or id (LEAD-201).',
    );
  return found;
}

export const findLeads = defineDemoTool({
  name: 'find_leads',
  displayName: 'Find leads',
  description:
    'Find leads in the CRM by industry, company size, pipeline stage and region; a free-text query matches company, city, contact, pain points and tech stack.',
  effect: 'read',
  input: z.strictObject({
    query: text().optional().describe('Free-text keywords, e.g. "Excel" or "Boston".'),
    industry: z.enum(INDUSTRIES).optional(),
    size: z.enum(SIZES).optional().describe('small < 200 employees, mid-market < 2000, enterprise.'),
    stage: z.enum(LEAD_STAGES).optional(),
    region: z.enum(REGIONS).optional(),
  }),
  async run(input, ctx) {
    const { industry, size, stage, region } = input;
    const matches = keywordFilter(input.query, LEADS, leadText)
      .filter((l) => !industry || l.industry === industry)
      .filter((l) => !size || l.size === size)
      .filter((l) => !stage || l.stage === stage)
      .filter((l) => !region || l.region === region);
    const last = new Map(
      (await createDemoRepository(ctx.db).lastActivities(ctx.userId)).map((a) => [
        a.lead_id,
        String(a.last ?? ''),
      ]),
    );
    const filters = [industry, size, stage, region].filter(Boolean).join(', ');
    const heading = `Found ${matches.length} lead${matches.length === 1 ? '' : 's'}${filters ? ` (${filters})` : ''}.`;
    if (matches.length === 0) return `${heading} Industries are ${INDUSTRIES.join(', ')}.`;
    return `${heading}\n\n${table(
      ['Id', 'Company', 'Industry', 'Size', 'Stage', 'Region', 'Contact', 'Last activity'],
      matches
        .slice(0, 20)
        .map((l) => [
          l.id,
          l.company,
          l.industry,
          `${l.size} (${l.employees})`,
          l.stage,
          l.region,
          `${l.contact}, ${l.title}`,
          last.get(l.id)?.slice(0, 10) || '—',
        ]),
    )}`;
  },
});

export const researchLead = defineDemoTool({
  name: 'research_lead',
  displayName: 'Research lead',
  description:
    'Research a lead: company profile, size and revenue, decision maker, pain point, current tools, CRM history and a suggested angle.',
  effect: 'read',
  input: z.strictObject({
    company: text().describe('Company name or lead id, e.g. "Brightwater Clinics" or LEAD-201.'),
  }),
  async run({ company }, ctx) {
    const lead = requireLead(company);
    const repo = createDemoRepository(ctx.db);
    await repo.markResearched(ctx.userId, lead.id, ctx.now().toISOString());
    const history = await repo.activitiesFor(ctx.userId, lead.id);
    const peers = LEADS.filter((l) => l.industry === lead.industry && l.stage === 'won');
    return [
      `## ${lead.company} (${lead.id})`,
      '',
      `- **Industry:** ${lead.industry} · **Size:** ${lead.size}, ${lead.employees} employees · **Revenue:** about $${lead.revenueMusd}M`,
      `- **Location:** ${lead.city} (${lead.region}) · **Stage:** ${lead.stage}`,
      `- **Decision maker:** ${lead.contact}, ${lead.title} (${lead.email})`,
      `- **Pain point:** ${lead.painPoint}`,
      `- **Current tools:** ${lead.techStack}`,
      '',
      `**Suggested angle:** ${SELLER.product} ${SELLER.pitch}; lead with the pain point above${peers.length ? ` and the ${peers[0]!.company} story` : ''}, and offer a 30-minute walkthrough on their own data from ${lead.techStack.split(',')[0]}.`,
      '',
      history.length
        ? `**CRM history:**\n${history.map((a) => `- ${a.created_at.slice(0, 10)} ${a.type} (${a.id}): ${a.notes}`).join('\n')}`
        : '**CRM history:** no activity yet.',
    ].join('\n');
  },
});

export const draftOutreachEmail = defineDemoTool({
  name: 'draft_outreach_email',
  displayName: 'Draft outreach email',
  description:
    "Draft a personalised outreach email to a lead's decision maker, built from the CRM data (returns the text; sends nothing). Only for a lead researched first with research_lead: it refuses any other.",
  effect: 'read',
  input: z.strictObject({
    company: text().describe('Company name or lead id.'),
    tone: z.enum(TONES).optional(),
  }),
  async run(input, ctx) {
    const lead = requireLead(input.company);
    if (!(await createDemoRepository(ctx.db).wasResearched(ctx.userId, lead.id)))
      throw new DemoInputError(
        `Not drafted: ${lead.company} has not been researched yet, and an email goes only to a lead ` +
          `researched first, so it speaks to their pain point and tools. Next: "Research ${lead.company}", ` +
          'then ask for the draft again.',
      );
    const tone = input.tone ?? 'friendly';
    const greeting = tone === 'formal' ? `Dear ${lead.contact}` : `Hi ${firstName(lead)}`;
    const pain = lead.painPoint.replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase());
    const body =
      tone === 'brief'
        ? [
            `${greeting},`,
            '',
            `Teams like ${lead.company} tell us ${pain}. ${SELLER.product} ${SELLER.pitch}. Worth 20 minutes next week?`,
          ]
        : [
            `${greeting},`,
            '',
            `I noticed ${lead.company} is growing in ${lead.city}, and I hear from ${lead.industry} ${lead.title.toLowerCase().includes('finance') || lead.title.includes('CFO') ? 'finance leaders' : 'operations leaders'} that ${pain}.`,
            '',
            `${SELLER.product} ${SELLER.pitch}. It connects to ${lead.techStack} in a day, so your team keeps the tools it knows.`,
            '',
            `Would you be open to a 30-minute call next week? I can show a forecast built on a sample of ${lead.company}'s own data.`,
          ];
    return [
      `**To:** ${lead.contact} <${lead.email}>`,
      `**Subject:** ${tone === 'brief' ? `${lead.company} + ${SELLER.product}` : `Forecasting for ${lead.company}: fixing "${lead.painPoint.split(' ').slice(0, 5).join(' ')}…"`}`,
      '',
      ...body,
      '',
      tone === 'formal' ? 'Kind regards,' : 'Best,',
      `${SELLER.sender}, ${SELLER.senderTitle}, ${SELLER.company}`,
    ].join('\n');
  },
});

export const logActivity = defineDemoTool({
  name: 'log_activity',
  displayName: 'Log activity',
  description:
    "Log a sales activity (email, call, meeting or note) against a lead in the CRM. Changes the CRM: needs the user's approval.",
  effect: 'write',
  input: z.strictObject({
    lead: text().describe('Company name or lead id, e.g. "Brightwater Clinics" or LEAD-201.'),
    type: z.enum(ACTIVITY_TYPES).optional(),
    notes: text().optional().describe('What happened (optional).'),
  }),
  // An unknown lead is refused before the visitor is asked to approve the write.
  async check(input) {
    requireLead(input.lead);
  },
  async run(input, ctx) {
    const lead = requireLead(input.lead);
    const type = input.type ?? 'note';
    // Blank notes count as none.
    const notes = (
      input.notes || `${type[0]!.toUpperCase()}${type.slice(1)} with ${lead.contact} logged from the chat.`
    ).slice(0, 1000);
    const id = await createDemoRepository(ctx.db).logActivity({
      user_id: ctx.userId,
      lead_id: lead.id,
      type,
      notes,
      created_at: ctx.now().toISOString(),
    });
    return `Logged ${type} ${id} on ${lead.company} (${lead.id}): ${notes}`;
  },
});

export const SALES_TOOLS: DemoTool[] = [findLeads, researchLead, draftOutreachEmail, logActivity];
