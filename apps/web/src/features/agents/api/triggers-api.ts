/**
 * The agent's triggers as the editor's Triggers section uses them: the last events, and the
 * Standard Webhooks secret that lets a host sign calls (generated options and keys, never retyped).
 */
import {
  deleteTriggerSecretMutation,
  getTriggerSecretOptions,
  getTriggerSecretQueryKey,
  listTriggerEventsOptions,
  listTriggerEventsQueryKey,
  rotateTriggerSecretMutation,
} from '../../../client/@tanstack/react-query.gen';
import type { ListTriggerEventsResponse } from '../../../client/types.gen';

export type TriggerEvent = ListTriggerEventsResponse[number];

export const triggerEventsOptions = (agentId: number) =>
  listTriggerEventsOptions({ path: { agent_id: agentId } });
export const triggerEventsQueryKey = (agentId: number) =>
  listTriggerEventsQueryKey({ path: { agent_id: agentId } });

export const triggerSecretOptions = (agentId: number) =>
  getTriggerSecretOptions({ path: { agent_id: agentId } });
export const triggerSecretQueryKey = (agentId: number) =>
  getTriggerSecretQueryKey({ path: { agent_id: agentId } });

export { deleteTriggerSecretMutation, rotateTriggerSecretMutation };

/** Where a host posts an event for the agent; `apiUrl` is the runtime configuration's, maybe relative. */
export function triggerUrl(apiUrl: string, agentId: number, triggerId: string): string {
  const base = new URL(apiUrl.replace(/\/*$/, '/'), window.location.href);
  return new URL(`api/v1/agents/${agentId}/triggers/${triggerId}`, base).href;
}
