import * as sdk from '../../../client/sdk.gen';
import { COPILOT_TEXT } from '../constants';

/**
 * A copilot token for the widget: the chat service binds every session to one agent, so the token
 * is issued for the agent named in `?agent=` or, by default, the caller's first agent.
 */
export async function copilotLogin(agentId?: number): Promise<string> {
  const id = agentId ?? (await sdk.listAgents())[0]?.id;
  if (id === undefined) throw new Error(COPILOT_TEXT.noAgent);
  const { copilot_auth_token } = await sdk.chainlitCopilotLogin({ body: { agent_id: id } });
  return copilot_auth_token;
}

/** Loads a script once by adding a <script src> element (no inline code, so the CSP holds). */
export function loadScript(src: string): Promise<void> {
  const existing = document.querySelector<HTMLScriptElement>(`script[data-cadre-src="${CSS.escape(src)}"]`);
  if (existing?.dataset.loaded === 'true') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = existing ?? document.createElement('script');
    script.addEventListener('load', () => {
      script.dataset.loaded = 'true';
      resolve();
    });
    script.addEventListener('error', () => reject(new Error(`Could not load ${src}`)));
    if (!existing) {
      script.src = src;
      script.async = true;
      script.dataset.cadreSrc = src;
      document.head.append(script);
    }
  });
}
