/** Every text of the usage screen. */
export const USAGE_TEXT = {
  title: 'Usage',
  intro:
    'What your agents used: turns, tokens, cost at the prices your operator set, tool calls and errors, ' +
    'from the chat, the copilot, the API, MCP and triggers. Days are UTC.',
  period: 'Period',
  grouping: 'Group',
  download: 'Download CSV',
  downloadFailed: 'Download failed',
  downloadFailedDetail: 'The CSV could not be downloaded. Please try again.',
  loading: 'Loading usage...',
  loadError: 'Error loading usage.',
  empty: 'No usage in this period. Chat with an agent and what it uses shows here.',
  estimated: 'estimated',
  estimatedNote:
    'Counts marked estimated come from the offline model or a provider that reports no usage: about four characters a token.',
  chartLabel: (grouping: string) => `Input and output tokens ${grouping.toLowerCase()}`,
  month: (used: string) => `This month: ${used} tokens used.`,
  budget: (used: string, budget: string, resets: string) =>
    `This month: ${used} of ${budget} tokens used. The count starts again on ${resets} (UTC).`,
  overBudget: 'Your monthly token budget is used up: agents answer again when it resets.',
  noBudget: 'No monthly budget is set.',
  columns: {
    day: 'Day',
    agent: 'Agent',
    model: 'Model',
    turns: 'Turns',
    input: 'Input tokens',
    output: 'Output tokens',
    cost: 'Cost',
    tools: 'Tool calls',
    errors: 'Errors',
  },
} as const;
