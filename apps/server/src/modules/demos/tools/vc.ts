import { z } from 'zod';
import { COUNTRIES, SECTORS, STAGES, STARTUPS, type Startup } from '../data/startups.ts';
import { keywordFilter, musd, namedIn, resolveOne, table } from './text.ts';
import { defineDemoTool, DemoInputError, text, type DemoTool } from './types.ts';

/**
 * The venture-capital analyst's tools: read-only over the shipped deal flow. The prompt's rule
 * "never invent companies" is kept here: a name that is not in the deal flow is refused, by name,
 * and never answered with a look-alike (Stripe is not Logstream).
 */

const startupText = (s: Startup) =>
  [s.id, s.name, s.sector, s.stage, s.country, s.city, s.founders, s.description].join(' ');
const byId = (s: Startup) => s.id;
const byName = (s: Startup) => s.name;

type Unknown = { said: string; closest?: Startup };

function notInDealFlow(unknown: Unknown[]): DemoInputError {
  const each = unknown.map((u) => `"${u.said}"${u.closest ? ` (did you mean ${u.closest.name}?)` : ''}`);
  return new DemoInputError(
    `Not in the deal flow: ${each.join(', ')}. This analyst works only from the deal flow, whose ` +
      'startups are all fictional, and describes no other company. Next: search startups to find one.',
  );
}

const overview = (list: Startup[]) =>
  table(
    ['Id', 'Startup', 'Sector', 'Stage', 'Country', 'ARR', 'Growth', 'Raised'],
    list.map((s) => [
      s.id,
      s.name,
      s.sector,
      s.stage,
      s.country,
      musd(s.revenueMusd),
      `${s.growthPct}%`,
      musd(s.raisedMusd),
    ]),
  );

export const searchStartups = defineDemoTool({
  name: 'search_startups',
  displayName: 'Search startups',
  description:
    'Search and filter the deal-flow database of startups by sector, stage, country, minimum revenue (ARR) and minimum growth; a free-text query matches names, cities, founders and descriptions.',
  effect: 'read',
  input: z.strictObject({
    query: text().optional().describe('Free-text keywords, e.g. "payments" or "Berlin".'),
    sector: z.enum(SECTORS).optional(),
    stage: z.enum(STAGES).optional(),
    country: z.enum(COUNTRIES).optional(),
    min_revenue_musd: z.number().optional().describe('Minimum annual recurring revenue in $M.'),
    min_growth_pct: z.number().optional().describe('Minimum year-over-year growth in percent.'),
  }),
  async run(input) {
    const { sector, stage, country } = input;
    const minRevenue = input.min_revenue_musd;
    const minGrowth = input.min_growth_pct;
    const matches = keywordFilter(input.query, STARTUPS, startupText)
      .filter((s) => !sector || s.sector === sector)
      .filter((s) => !stage || s.stage === stage)
      .filter((s) => !country || s.country === country)
      .filter((s) => minRevenue === undefined || s.revenueMusd >= minRevenue)
      .filter((s) => minGrowth === undefined || s.growthPct >= minGrowth)
      .sort((a, b) => b.revenueMusd - a.revenueMusd);
    const filters = [
      sector && `sector ${sector}`,
      stage && `stage ${stage}`,
      country && `country ${country}`,
      minRevenue !== undefined && `ARR ≥ ${musd(minRevenue)}`,
      minGrowth !== undefined && `growth ≥ ${minGrowth}%`,
    ].filter(Boolean);
    const heading = `Found ${matches.length} startup${matches.length === 1 ? '' : 's'}${filters.length ? ` (${filters.join(', ')})` : ''}.`;
    if (matches.length === 0) return `${heading} Try fewer filters; sectors are ${SECTORS.join(', ')}.`;
    const shown = matches.slice(0, 15);
    const more = matches.length > shown.length ? `\n\nShowing the ${shown.length} largest by ARR.` : '';
    return `${heading}\n\n${overview(shown)}${more}`;
  },
});

export const compareStartups = defineDemoTool({
  name: 'compare_startups',
  displayName: 'Compare startups',
  description:
    'Compare two or more startups side by side: ARR, growth, funding raised, gross margin, burn, runway and team size.',
  effect: 'read',
  input: z.strictObject({
    companies: text().describe(
      'The startups to compare, by name or id, e.g. "Novapay, Ledgerline" or "STU-101 and STU-103".',
    ),
  }),
  async run({ companies }) {
    // Each name given must be a startup of the deal flow ("Novapay Ledgerline" names two).
    const named = new Set<Startup>();
    const unknown: Unknown[] = [];
    for (const said of companies.split(/,|\band\b|\bvs\.?\b|\bversus\b|&/i).map((p) => p.trim())) {
      if (!said) continue;
      const { found, closest } = resolveOne(said, STARTUPS, byId, byName);
      if (!found) unknown.push({ said, closest });
      const all = namedIn(said, STARTUPS, byId, byName);
      for (const s of all.length > 0 ? all : found ? [found] : []) named.add(s);
    }
    if (unknown.length > 0) throw notInDealFlow(unknown);
    if (named.size < 2) {
      throw new DemoInputError(
        `Name at least two startups to compare (found ${named.size}). For example: Novapay, Ledgerline.`,
      );
    }
    const picked = [...named].slice(0, 5);
    const runway = (s: Startup) =>
      s.burnMusd > 0 ? `${Math.round((s.raisedMusd * 0.45) / s.burnMusd)} mo (est.)` : 'n/a';
    const rows: Array<[string, (s: Startup) => string | number]> = [
      ['Sector', (s) => s.sector],
      ['Stage', (s) => s.stage],
      ['HQ', (s) => `${s.city}, ${s.country}`],
      ['Founded', (s) => s.founded],
      ['Employees', (s) => s.employees],
      ['ARR', (s) => musd(s.revenueMusd)],
      ['Growth (YoY)', (s) => `${s.growthPct}%`],
      ['Raised', (s) => musd(s.raisedMusd)],
      ['Gross margin', (s) => `${s.grossMarginPct}%`],
      ['Monthly burn', (s) => musd(s.burnMusd)],
      ['Runway', runway],
      ['ARR per employee', (s) => `$${Math.round((s.revenueMusd * 1000) / s.employees)}k`],
    ];
    const grid = table(
      ['', ...picked.map((s) => s.name)],
      rows.map(([label, f]) => [label, ...picked.map(f)]),
    );
    const fastest = [...picked].sort((a, b) => b.growthPct - a.growthPct)[0]!;
    const largest = [...picked].sort((a, b) => b.revenueMusd - a.revenueMusd)[0]!;
    const efficient = [...picked].sort(
      (a, b) => b.revenueMusd / b.employees - a.revenueMusd / a.employees,
    )[0]!;
    return `${grid}\n\n- Fastest growing: **${fastest.name}** (${fastest.growthPct}%)\n- Largest: **${largest.name}** (${musd(largest.revenueMusd)} ARR)\n- Most capital-efficient per employee: **${efficient.name}**`;
  },
});

export const draftInvestmentMemo = defineDemoTool({
  name: 'draft_investment_memo',
  displayName: 'Draft investment memo',
  description:
    'Draft a structured investment memo (summary, metrics, strengths, risks, questions for the founders, recommendation) for one startup from its data.',
  effect: 'read',
  input: z.strictObject({
    company: text().describe('The startup, by name or id, e.g. "Novapay" or "STU-101".'),
  }),
  async run({ company }) {
    const { found: s, closest } = resolveOne(company, STARTUPS, byId, byName);
    if (!s) throw notInDealFlow([{ said: company, closest }]);
    const peers = STARTUPS.filter((p) => p.sector === s.sector && p.id !== s.id);
    const peerGrowth = peers.length
      ? Math.round(peers.reduce((n, p) => n + p.growthPct, 0) / peers.length)
      : s.growthPct;
    const runwayMonths = s.burnMusd > 0 ? Math.round((s.raisedMusd * 0.45) / s.burnMusd) : undefined;
    const strengths: string[] = [];
    const risks: string[] = [];
    if (s.growthPct >= peerGrowth)
      strengths.push(`Growth of ${s.growthPct}% is above the ${s.sector} peer average of ${peerGrowth}%.`);
    else risks.push(`Growth of ${s.growthPct}% trails the ${s.sector} peer average of ${peerGrowth}%.`);
    if (s.grossMarginPct >= 70) strengths.push(`Software-like gross margin of ${s.grossMarginPct}%.`);
    else if (s.grossMarginPct < 45)
      risks.push(`Gross margin of ${s.grossMarginPct}% limits how far revenue scales into profit.`);
    if (s.revenueMusd / s.employees >= 0.12)
      strengths.push(
        `Efficient team: about $${Math.round((s.revenueMusd * 1000) / s.employees)}k ARR per employee.`,
      );
    if (runwayMonths !== undefined && runwayMonths < 18)
      risks.push(`Estimated runway of about ${runwayMonths} months: the next round is close.`);
    if (s.revenueMusd < 1)
      risks.push('Pre-revenue or very early revenue: the thesis rests on the team and the market.');
    if (s.stage === 'Series C' && s.growthPct < 50)
      risks.push('Late stage with moderating growth: entry valuation matters.');
    if (strengths.length === 0)
      strengths.push(`A focused product in ${s.sector}: ${s.description.toLowerCase()}`);
    if (risks.length === 0) risks.push('Competition from larger incumbents in the same category.');
    const score = strengths.length - risks.length + (s.growthPct >= 100 ? 1 : 0);
    const recommendation =
      score >= 2
        ? 'Proceed to partner meeting'
        : score >= 0
          ? 'Continue diligence'
          : 'Pass for now; revisit next round';
    return [
      `# Investment memo: ${s.name} (${s.id})`,
      '',
      `**${s.stage} · ${s.sector} · ${s.city}, ${s.country} · founded ${s.founded}**`,
      '',
      '## Summary',
      `${s.name} — ${s.description} Founded by ${s.founders}; ${s.employees} employees.`,
      '',
      '## Key metrics',
      table(
        ['ARR', 'Growth (YoY)', 'Gross margin', 'Raised to date', 'Monthly burn', 'Runway (est.)'],
        [
          [
            musd(s.revenueMusd),
            `${s.growthPct}%`,
            `${s.grossMarginPct}%`,
            musd(s.raisedMusd),
            musd(s.burnMusd),
            runwayMonths ? `${runwayMonths} months` : 'n/a',
          ],
        ],
      ),
      '',
      '## Strengths',
      ...strengths.map((x) => `- ${x}`),
      '',
      '## Risks',
      ...risks.map((x) => `- ${x}`),
      '',
      '## Questions for the founders',
      `- What drives the ${s.growthPct}% growth, and how much of it is repeatable?`,
      '- Net revenue retention and logo churn over the last 12 months?',
      `- How will the next ${musd(Math.max(1, s.raisedMusd * 0.6))} be deployed, and which milestones does it buy?`,
      '',
      `## Recommendation: ${recommendation}`,
      '',
      '_Drafted from the demo deal-flow data; figures are fictional._',
    ].join('\n');
  },
});

export const VC_TOOLS: DemoTool[] = [searchStartups, compareStartups, draftInvestmentMemo];
