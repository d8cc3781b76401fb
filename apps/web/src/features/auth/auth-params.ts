/** True while the URL carries an authorization response for the sign-in client to handle. */
export function hasAuthParams(location: Location = window.location): boolean {
  const params = new URLSearchParams(location.search);
  return (params.has('code') || params.has('error')) && params.has('state');
}
