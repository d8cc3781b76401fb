/**
 * Everything the built-in offline model says, as data: the model logic (offline-model.ts) picks a
 * phrase and fills in the tool names, inputs and results.
 */

export const OFFLINE_LABEL = 'Offline model — configure an LLM provider for full answers';

/** Words that never pick a tool (they appear in almost every request). */
export const STOP_WORDS = new Set(
  'a an and the to of for in on at by with from into please can could would you me my i is are be it this that what how do does some using use run call tell show give get want need'.split(
    ' ',
  ),
);

/** `tool` is the markdown-ready tool name (`**name**` in results); `example` an example call. */
export const PHRASES = {
  nothingMore: 'I am the offline model and have nothing more to add.',
  noTools:
    `${OFFLINE_LABEL}.\n\nI am Cadre's built-in offline model: I can only run the tools attached to ` +
    'this agent, and this agent has none. Attach tools to the agent, or ask your administrator to ' +
    'configure an LLM provider for full answers.',
  noMatch: (list: string, example: string) =>
    `${OFFLINE_LABEL}.\n\nI could not match your message to one of this agent's tools. ` +
    `This agent has:\n\n${list}\n\nName the tool and give its inputs, for example \`${example}\`.`,
  toolListItem: (name: string, description: string) =>
    `- **${name}**${description ? `: ${description}` : ''}`,
  missingInputs: (tool: string, missing: string[], example: string) =>
    `${OFFLINE_LABEL}.\n\nTo run **${tool}** I need: ${missing.map((m) => `\`${m}\``).join(', ')}. ` +
    `Give them as \`name: value\`, for example \`${example}\`.`,
  resultsHeader: `${OFFLINE_LABEL}.`,
  denied: (tool: string, reason: string | undefined) =>
    `${tool} was not run: you denied it${reason ? ` (${reason})` : ''}.`,
  failed: (tool: string, text: string) => `${tool} failed: ${text}`,
  failedWith: (tool: string) => `${tool} failed:`,
  returned: (tool: string) => `${tool} returned:`,
  unshowable: (tool: string) => `${tool} returned a result I cannot show.`,
  nothingToReport: (messages: number) => `Nothing to report (${messages} messages so far).`,
} as const;
