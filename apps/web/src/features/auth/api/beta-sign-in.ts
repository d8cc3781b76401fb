import * as sdk from '../../../client/sdk.gen';

/** `POST /api/v1/public/beta-user-signin` with the access code; rejects with an ApiError. */
export async function betaUserSignIn(password: string): Promise<void> {
  await sdk.betaUserSignin({ body: { password } });
}
