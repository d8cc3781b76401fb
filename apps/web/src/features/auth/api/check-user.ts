import type { QueryClient } from '@tanstack/react-query';
import { getMeQueryKey } from '../../../client/@tanstack/react-query.gen';
import * as sdk from '../../../client/sdk.gen';

/**
 * Tells the API a person has signed in (spec section 7); the API creates or updates their user,
 * and may change their role (ADMIN_EMAILS, the issuer's role claim), so the profile the screens
 * read is fetched again. A failure is only logged: sign-in goes on.
 */
export async function checkUser(queryClient?: QueryClient): Promise<void> {
  try {
    await sdk.checkUser();
    await queryClient?.invalidateQueries({ queryKey: getMeQueryKey() });
  } catch (error) {
    console.warn('check-user failed after sign-in', error);
  }
}
