import * as sdk from '../../../client/sdk.gen';

/** chainlitCopilotLogin: a token the copilot widget signs in to the chat service with. */
export const chainlitCopilotLogin = () => sdk.chainlitCopilotLogin();

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
