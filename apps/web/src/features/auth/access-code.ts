/** The browser-storage flag the beta access-code gate sets (spec sections 2 and 3). */
export const PASSWORD_SIGNED_IN_KEY = 'passwordSignedIn';

export function hasPassedAccessCode(): boolean {
  try {
    return window.localStorage.getItem(PASSWORD_SIGNED_IN_KEY) === 'true';
  } catch {
    return false;
  }
}
