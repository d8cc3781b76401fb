import { describe, expect, it } from 'vitest';
import { CALL_FN_EVENT, COPILOT_TEXT, copilotScriptUrl, simulatedAnswer } from './constants';

describe('copilot', () => {
  it('loads the widget from the chat service and shows the spec text', () => {
    expect(copilotScriptUrl('http://app.test/chainlit')).toBe('http://app.test/chainlit/copilot/index.js');
    expect(COPILOT_TEXT.loaded).toBe('Copilot should load in the bottom right.');
    expect(CALL_FN_EVENT).toBe('chainlit-call-fn');
  });

  it('answers a function call with a simulated message naming the call', () => {
    expect(simulatedAnswer({ name: 'test', args: { msg: 'hi' } })).toBe(
      'Simulated answer from the host page: the function "test" ran with {"msg":"hi"}.',
    );
  });
});
