import { client } from '../../../client/client.gen';

/** `POST /api/v1/public/beta-user-signin` with the access code; rejects with an ApiError. */
export async function betaUserSignIn(password: string): Promise<void> {
  await client.post({
    url: '/api/v1/public/beta-user-signin',
    body: { password },
    headers: { 'Content-Type': 'application/json' },
  });
}
