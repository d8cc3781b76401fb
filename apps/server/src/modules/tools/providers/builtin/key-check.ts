import type { Config } from '../../../../config.ts';
import { EgressError, hostPolicy, safeFetch, type SafeRequestInit } from '../../egress.ts';
import { KeyCheckError } from '../../provider.ts';

/** A key check is one small request: a provider that takes longer is treated as unreachable. */
const KEY_CHECK_TIMEOUT_MS = 10_000;

/** The cheapest documented call that needs the key, and how the provider says a key is wrong. */
export interface KeyCheck {
  /** The provider's name as people know it ("Brave Search"). */
  provider: string;
  /** The configured base URL (tests point it at a local stub); only its host is reached. */
  base: string;
  /** Path and query after the base. */
  path: string;
  init?: SafeRequestInit;
  /**
   * Besides 401 and 403: an answer that also means the key was refused (Google answers 400
   * API_KEY_INVALID; Brave answers 422 SUBSCRIPTION_TOKEN_INVALID).
   */
  refusedAlso?: (status: number, body: string) => boolean;
}

/**
 * Makes the check through the egress guard (the base URL's host only). A refused key throws a
 * refused {@link KeyCheckError}; no answer, or one that neither accepts nor refuses the key (429,
 * 5xx), throws an unrefused one, so nothing is saved either way. Messages never carry the key.
 */
export async function checkKey(check: KeyCheck, config: Config): Promise<void> {
  let res;
  try {
    res = await safeFetch(
      `${check.base}${check.path}`,
      { ...check.init, headers: { accept: 'application/json', ...check.init?.headers } },
      hostPolicy(config, check.base, { timeoutMs: KEY_CHECK_TIMEOUT_MS, maxBytes: 256 * 1024 }),
    );
  } catch (err) {
    const reason = err instanceof EgressError ? err.message : 'no answer';
    throw new KeyCheckError(
      false,
      `${check.provider} could not be reached to check this API key (${reason}); nothing was saved, try again`,
    );
  }
  if (res.ok) return;
  if (res.status === 401 || res.status === 403 || check.refusedAlso?.(res.status, res.text())) {
    throw new KeyCheckError(true, `${check.provider} refused this API key (${res.status})`);
  }
  throw new KeyCheckError(
    false,
    `${check.provider} could not check this API key (it answered ${res.status}); nothing was saved, try again`,
  );
}
