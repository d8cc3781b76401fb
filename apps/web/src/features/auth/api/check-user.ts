import { client } from '../../../client/client.gen';

/**
 * Tells the API a person has signed in (spec section 7); the API creates or updates their user.
 * A failure is only logged: sign-in goes on.
 */
export async function checkUser(): Promise<void> {
  try {
    await client.post({ url: '/api/v1/users/check-user' });
  } catch (error) {
    console.warn('check-user failed after sign-in', error);
  }
}
