import { DEMO_USERNAME, type DemoName } from '../constants';

/**
 * Logs out of the demo chat server, then logs in as the anonymous demo user with the demo's name as
 * password, and returns where to go. The first call may fail (cross-origin, no session): ignored.
 */
export async function loginToDemo(
  demosUrl: string,
  demo: DemoName,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const base = demosUrl.replace(/\/+$/, '');
  try {
    await fetchImpl(`${base}/logout`, { method: 'POST', credentials: 'include' });
  } catch {
    // Expected when there is no demo session yet.
  }
  const form = new FormData();
  form.append('username', DEMO_USERNAME);
  form.append('password', demo);
  await fetchImpl(`${base}/login`, { method: 'POST', body: form, credentials: 'include' });
  return `${base}/`;
}
