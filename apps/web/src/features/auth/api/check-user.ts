import * as sdk from '../../../client/sdk.gen';

/**
 * Tells the API a person has signed in (spec section 7); the API creates or updates their user.
 * A failure is only logged: sign-in goes on.
 */
export async function checkUser(): Promise<void> {
  try {
    await sdk.checkUser();
  } catch (error) {
    console.warn('check-user failed after sign-in', error);
  }
}
