import type { TriggerSecretCreated, TriggerSecretStatus } from '@cadre/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { AuditLog } from '../../kernel.ts';
import type { TriggerAgents } from './ports.ts';
import { notFound } from '../../http/errors.ts';
import {
  createWebhookSecret,
  verifyWebhook,
  webhookKey,
  type WebhookVerdict,
} from '../../security/standard-webhooks.ts';
import type { Vault } from '../../security/vault.ts';

/** A verified signed call: whose agent it is, and its `webhook-id`. */
export type SignedCall = { ok: true; userId: number; webhookId: string } | { ok: false; reason: string };

/**
 * Per-agent Standard Webhooks secrets (`trigger_secrets`), with which a host signs trigger calls
 * instead of holding a user's token. Sealed with the vault: verifying needs the secret itself, so
 * it cannot be stored as a hash like an API key; it is shown once, when made, and never again.
 */
export function triggerSecrets(deps: {
  db: Db;
  vault: Vault;
  audit: AuditLog;
  agents: Pick<TriggerAgents, 'exists'>;
}) {
  const k = deps.db.kysely;
  const owned = async (userId: number, agentId: number) => {
    if (!(await deps.agents.exists(userId, agentId))) throw notFound('Agent not found');
  };
  /** Whether the agent had a secret to delete. */
  const deleteSecret = async (trx: Kysely<Database>, userId: number, agentId: number) => {
    const deleted = await trx
      .deleteFrom('trigger_secrets')
      .where('user_id', '=', userId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  };

  return {
    async status(userId: number, agentId: number): Promise<TriggerSecretStatus> {
      await owned(userId, agentId);
      const row = await k
        .selectFrom('trigger_secrets')
        .select('created_at')
        .where('user_id', '=', userId)
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      return { created_at: row?.created_at ?? null };
    },

    /** A new secret for the agent; one it had stops verifying at once. */
    async rotate(userId: number, agentId: number): Promise<TriggerSecretCreated> {
      await owned(userId, agentId);
      const secret = createWebhookSecret();
      const createdAt = new Date().toISOString();
      await k.transaction().execute(async (trx) => {
        const replaced = await deleteSecret(trx, userId, agentId);
        await trx
          .insertInto('trigger_secrets')
          .values({
            agent_id: agentId,
            user_id: userId,
            secret: deps.vault.seal(secret),
            created_at: createdAt,
          })
          .execute();
        await deps.audit.record(
          {
            userId,
            action: 'agent.trigger_secret',
            objectType: 'agent',
            objectId: agentId,
            detail: { rotated: replaced },
          },
          trx,
        );
      });
      return { secret, created_at: createdAt };
    },

    /** Signed calls stop: only token-authenticated calls reach the agent's triggers. */
    async remove(userId: number, agentId: number): Promise<void> {
      await owned(userId, agentId);
      await k.transaction().execute(async (trx) => {
        if (!(await deleteSecret(trx, userId, agentId))) return;
        await deps.audit.record(
          { userId, action: 'agent.trigger_secret_delete', objectType: 'agent', objectId: agentId },
          trx,
        );
      });
    },

    /**
     * Checks a call's Standard Webhooks signature against the agent's secret. An agent without a
     * secret, or no agent at all, is refused like a wrong signature: the answer tells nothing.
     */
    async verify(
      agentId: number,
      headers: Record<string, string | string[] | undefined>,
      rawBody: Buffer,
    ): Promise<SignedCall> {
      const row = await k
        .selectFrom('trigger_secrets')
        .select(['user_id', 'secret'])
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      const verdict: WebhookVerdict = row
        ? verifyWebhook({ secret: webhookKey(deps.vault.open(row.secret)), headers, rawBody })
        : { ok: false, code: 'unauthorized', reason: 'Invalid webhook signature' };
      if (!verdict.ok || !row)
        return { ok: false, reason: verdict.ok ? 'Invalid webhook signature' : verdict.reason };
      return { ok: true, userId: row.user_id, webhookId: verdict.id };
    },
  };
}

export type TriggerSecrets = ReturnType<typeof triggerSecrets>;
