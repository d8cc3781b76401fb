/* global window */
// The identity provider's answer to a silent sign-in (prompt=none) lands here, in a hidden frame of
// the web app: hand the address (code and state, or the error) to the app in the parent window,
// the message oidc-client-ts's signinSilent waits for. Only our own origin may read it.
if (window.parent !== window) {
  window.parent.postMessage(
    { source: 'oidc-client', url: window.location.href, keepOpen: false },
    window.location.origin,
  );
}
