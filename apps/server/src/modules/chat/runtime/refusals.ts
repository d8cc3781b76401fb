import { API_WRITES_CHOICES, API_WRITES_SETTING, UNATTENDED_WRITES_SETTING } from '@cadre/contract';

/** What a write or send call answers in a trigger's run whose agent does not allow it. */
export const UNATTENDED_WRITE_REFUSAL =
  'This agent may not write or send in unattended runs; its owner can turn on ' +
  `"${UNATTENDED_WRITES_SETTING}" in the agent's editor in Cadre.`;
/** What a write or send call answers in an API or MCP run whose owner chose to refuse them. */
export const API_WRITE_REFUSAL =
  "This agent's owner refuses write and send actions asked through the API or MCP " +
  `(the agent's setting "${API_WRITES_SETTING}": "${API_WRITES_CHOICES.refuse}"); ` +
  'the call was refused and nothing was changed.';
