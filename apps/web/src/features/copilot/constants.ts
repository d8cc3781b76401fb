export const COPILOT_TEXT = {
  loaded: 'Copilot should load in the bottom right.',
  signInNeeded: 'Sign in to use the copilot.',
  noAgent: 'The copilot chats with one of your agents: create an agent first.',
  back: '← Back to Cadre',
} as const;

/** The window event the copilot widget raises when the chat calls a function of this page. */
export const CALL_FN_EVENT = 'chainlit-call-fn';

export interface CallFnDetail {
  name: string;
  args: Record<string, unknown>;
  callback: (result: unknown) => void;
}

/** The answer this demo page gives to a function call from the chat: a simulated message. */
export function simulatedAnswer(detail: Pick<CallFnDetail, 'name' | 'args'>): string {
  return `Simulated answer from the host page: the function "${detail.name}" ran with ${JSON.stringify(detail.args ?? {})}.`;
}

export const copilotScriptUrl = (chainlitUrl: string) =>
  `${chainlitUrl.replace(/\/+$/, '')}/copilot/index.js`;
