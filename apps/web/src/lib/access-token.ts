/**
 * The bridge between sign-in and the API client: the provider registers how to read the current
 * access token, and `configureApiClient({getAccessToken})` asks here on every call. Tokens stay in
 * memory (the sign-in library's in-memory store); nothing is written to browser storage.
 */
type TokenSource = () => Promise<string | undefined>;

let source: TokenSource = async () => undefined;

export function setAccessTokenSource(next: TokenSource) {
  source = next;
}

export function getAccessToken(): Promise<string | undefined> {
  return source();
}
