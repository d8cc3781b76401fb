import crypto from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com) verification, for every signed call the server takes:
 * Composio's webhooks and hosts' trigger calls. `webhook-signature` holds one or more `v1,<base64>`
 * values separated by spaces, each an HMAC-SHA256 with the key over `{id}.{timestamp}.{raw body}`.
 * Constant-time comparison, a 300-second window either way, and fail closed without a key (tests
 * J1–J3). Replays are the caller's to refuse, by the verified `webhook-id`.
 */

export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The prefix of a secret in the specification's form: `whsec_` then the key in base64. */
const SECRET_PREFIX = 'whsec_';

export type WebhookVerdict =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; code: 'unauthorized' | 'unavailable'; reason: string };

/** A new secret in the specification's form (24 random bytes, as its reference libraries make). */
export function createWebhookSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(24).toString('base64')}`;
}

/**
 * The HMAC key of a secret: the bytes after `whsec_` for a secret in the specification's form,
 * the text itself for a provider's plain shared secret (Composio's).
 */
export function webhookKey(secret: string): Buffer | string {
  return secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
    : secret;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

export function signWebhook(
  secret: string | Buffer,
  id: string,
  timestamp: number,
  rawBody: Buffer | string,
): string {
  const mac = crypto.createHmac('sha256', secret);
  mac.update(`${id}.${timestamp}.`);
  mac.update(rawBody);
  return `v1,${mac.digest('base64')}`;
}

export function verifyWebhook(input: {
  /** The HMAC key: a plain shared secret, or `webhookKey(whsec_…)`. */
  secret: string | Buffer | undefined;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer | string;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): WebhookVerdict {
  if (!input.secret?.length)
    return { ok: false, code: 'unavailable', reason: 'Webhook verification is not configured' };
  const id = header(input.headers, 'webhook-id');
  const timestampText = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestampText || !signatures)
    return { ok: false, code: 'unauthorized', reason: 'Missing webhook signature headers' };
  if (!/^\d{1,12}$/.test(timestampText))
    return { ok: false, code: 'unauthorized', reason: 'Invalid webhook timestamp' };
  const timestamp = Number(timestampText);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    return { ok: false, code: 'unauthorized', reason: 'Webhook timestamp outside the allowed window' };
  }
  const expected = Buffer.from(signWebhook(input.secret, id, timestamp, input.rawBody).slice(3), 'base64');
  const matches = signatures
    .split(' ')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('v1,'))
    .some((s) => {
      const given = Buffer.from(s.slice(3), 'base64');
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
  if (!matches) return { ok: false, code: 'unauthorized', reason: 'Invalid webhook signature' };
  return { ok: true, id, timestamp };
}
