// Apart from sign-in-request.ts: main.tsx reads it before deciding to load oidc-client-ts.
/** Whether this tab has signed in before (a flag, never a token): a reload may then sign in silently. */
export const signedInThisTab = {
  key: 'cadre:signed-in',
  get(): boolean {
    try {
      return window.sessionStorage.getItem(this.key) === 'true';
    } catch {
      return false;
    }
  },
  set(value: boolean) {
    try {
      if (value) window.sessionStorage.setItem(this.key, 'true');
      else window.sessionStorage.removeItem(this.key);
    } catch {
      // no storage (private mode): a reload goes through the provider's page instead
    }
  },
};
