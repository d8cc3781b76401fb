import { RequireAuth } from './require-auth';

/**
 * What `/` shows while the provider's answer (code and state in the URL) is being exchanged; the
 * sign-in client then moves on to the remembered path. A failed exchange shows its error.
 */
export function AuthCallback() {
  return (
    <RequireAuth>
      <></>
    </RequireAuth>
  );
}
