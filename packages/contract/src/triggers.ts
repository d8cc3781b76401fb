import { z } from 'zod';

/** Trigger calls: their recent events and the secret that signs calls from hosts (Standard Webhooks). */

/** What the trigger worker records of an event: waiting, being run, run, or given up. */
export const TRIGGER_EVENT_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type TriggerEventStatus = (typeof TRIGGER_EVENT_STATUSES)[number];

/** How many of an agent's latest events `GET /agents/{id}/triggers/events` lists. */
export const TRIGGER_EVENTS_SHOWN = 20;

export const triggerEventSchema = z.object({
  id: z.number(),
  trigger_id: z.string(),
  status: z.enum(TRIGGER_EVENT_STATUSES),
  /** Runs started for it so far (a run lost with its instance is run again). */
  attempts: z.number(),
  /** The thread its run writes to (`/agents/{agent_id}/chat/{thread_id}`); null until it starts. */
  thread_id: z.string().nullable(),
  received_at: z.string(),
  updated_at: z.string(),
});
export type TriggerEvent = z.infer<typeof triggerEventSchema>;
export const triggerEventListSchema = z.array(triggerEventSchema);

/** The prefix of a Standard Webhooks secret; the rest is the key in base64. */
export const TRIGGER_SECRET_PREFIX = 'whsec_';

/** Whether signed calls are on for the agent; the secret itself is shown once, when it is made. */
export const triggerSecretStatusSchema = z.object({
  created_at: z.string().nullable(),
});
export type TriggerSecretStatus = z.infer<typeof triggerSecretStatusSchema>;

/** `POST /agents/{id}/trigger-secret`: the new secret, in full this once. */
export const triggerSecretCreatedSchema = z.object({
  secret: z.string(),
  created_at: z.string(),
});
export type TriggerSecretCreated = z.infer<typeof triggerSecretCreatedSchema>;

/** The Standard Webhooks headers of a signed trigger call. */
export const TRIGGER_SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
