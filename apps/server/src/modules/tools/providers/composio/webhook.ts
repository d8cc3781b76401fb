import { verifyWebhook } from '../../../../security/standard-webhooks.ts';
import type { ConnectionStore } from '../../connection-port.ts';
import type { ToolsRepository } from '../../repository.ts';
import { composioUserId } from './index.ts';

/**
 * Composio signs its webhooks per Standard Webhooks (`security/standard-webhooks.ts`) with the
 * shared secret as the key; replays are refused through the deliveries table (J4).
 */

/** A Composio trigger event, resolved to its owner from our own connection rows (J5). */
export interface TriggerDelivery {
  userId: number;
  serviceId: number;
  triggerId: string | null;
  triggerSlug: string | null;
  payload: unknown;
}

/** An accepted delivery (200 with `detail`), or a refused one with the error code it answers. */
export type WebhookOutcome =
  | { ok: true; detail: string; event: { type: string; duplicate?: boolean; userIds?: number[] } }
  | { ok: false; code: 'bad_request' | 'unauthorized' | 'unavailable'; detail: string };

interface ComposioEvent {
  type?: string;
  metadata?: { connected_account_id?: string; trigger_id?: string; trigger_slug?: string; user_id?: string };
  data?: Record<string, unknown>;
}

/**
 * `POST /api/v1/public/composio-webhook`: verifies the signature over the raw body, refuses
 * replays by webhook id, then marks expired accounts and hands trigger messages on. Owners are
 * found from our connection rows by account id; the payload's user id must agree.
 */
export function createComposioWebhookHandler(deps: {
  secret: string | undefined;
  repo: ToolsRepository;
  connections: ConnectionStore;
  /** Hands trigger events to the trigger store (the triggers module sets this). */
  onTrigger?: (event: TriggerDelivery) => Promise<void>;
}) {
  const { repo, connections } = deps;
  return async function handleComposioWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookOutcome> {
    const verdict = verifyWebhook({ secret: deps.secret, headers, rawBody });
    if (!verdict.ok) return { ok: false, code: verdict.code, detail: verdict.reason };
    let event: ComposioEvent;
    try {
      event = JSON.parse(rawBody.toString('utf8')) as ComposioEvent;
    } catch {
      return { ok: false, code: 'bad_request', detail: 'The webhook body is not JSON' };
    }
    const type = typeof event?.type === 'string' ? event.type : 'unknown';
    if (!(await repo.recordWebhookDelivery('composio', verdict.id))) {
      return { ok: true, detail: 'Already processed', event: { type, duplicate: true } };
    }
    if (type === 'composio.connected_account.expired') {
      const accountId = typeof event.data?.id === 'string' ? event.data.id : undefined;
      const changed = accountId
        ? await connections.setStatusByExternalId('composio', accountId, 'EXPIRED')
        : [];
      return { ok: true, detail: 'Processed', event: { type, userIds: changed.map((c) => c.user_id) } };
    }
    if (type === 'composio.trigger.message') {
      const accountId = event.metadata?.connected_account_id;
      const owners = accountId ? await connections.findByExternalId('composio', accountId) : [];
      // Without any Composio service the event addresses nobody: ignored, not processed.
      if (!accountId || (!owners.length && !(await repo.hasProviderServices('composio'))))
        return { ok: true, detail: 'Ignored', event: { type, userIds: [] } };
      const matching = owners.filter(
        (o) => !event.metadata?.user_id || event.metadata.user_id === composioUserId(o.user_id),
      );
      for (const owner of matching) {
        await deps.onTrigger?.({
          userId: owner.user_id,
          serviceId: owner.service_id,
          triggerId: event.metadata?.trigger_id ?? null,
          triggerSlug: event.metadata?.trigger_slug ?? null,
          payload: event.data ?? null,
        });
      }
      return { ok: true, detail: 'Processed', event: { type, userIds: matching.map((o) => o.user_id) } };
    }
    return { ok: true, detail: 'Ignored', event: { type } };
  };
}
