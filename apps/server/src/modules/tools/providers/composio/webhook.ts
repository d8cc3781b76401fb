import crypto from 'node:crypto';

/**
 * Composio webhook verification (Standard Webhooks scheme): `webhook-signature` holds one or more
 * `v1,<base64>` values, each an HMAC-SHA256 with the secret over `{id}.{timestamp}.{raw body}`.
 * Constant-time comparison, a 300-second window either way, and fail closed without a secret
 * (tests J1–J3). Replays are refused by the caller through the deliveries table (J4).
 */

export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookVerdict =
  { ok: true; id: string; timestamp: number } | { ok: false; status: 401 | 503; reason: string };

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

export function signWebhook(secret: string, id: string, timestamp: number, rawBody: Buffer | string): string {
  const mac = crypto.createHmac('sha256', secret);
  mac.update(`${id}.${timestamp}.`);
  mac.update(rawBody);
  return `v1,${mac.digest('base64')}`;
}

export function verifyWebhook(input: {
  secret: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  nowSeconds?: number;
  toleranceSeconds?: number;
}): WebhookVerdict {
  if (!input.secret) return { ok: false, status: 503, reason: 'Webhook verification is not configured' };
  const id = header(input.headers, 'webhook-id');
  const timestampText = header(input.headers, 'webhook-timestamp');
  const signatures = header(input.headers, 'webhook-signature');
  if (!id || !timestampText || !signatures)
    return { ok: false, status: 401, reason: 'Missing webhook signature headers' };
  if (!/^\d{1,12}$/.test(timestampText))
    return { ok: false, status: 401, reason: 'Invalid webhook timestamp' };
  const timestamp = Number(timestampText);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (input.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    return { ok: false, status: 401, reason: 'Webhook timestamp outside the allowed window' };
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
  if (!matches) return { ok: false, status: 401, reason: 'Invalid webhook signature' };
  return { ok: true, id, timestamp };
}
