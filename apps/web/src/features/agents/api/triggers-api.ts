/**
 * The agent's triggers as the editor's Triggers section uses them: the last events, and the
 * Standard Webhooks secret that lets a host sign calls (generated options and keys, never retyped).
 */
import * as generated from '../../../client/@tanstack/react-query.gen';
import type { ListTriggerEventsResponse } from '../../../client/types.gen';

export type TriggerEvent = ListTriggerEventsResponse[number];

const ofAgent = (agentId: number) => ({ path: { agent_id: agentId } });

export const triggerEventsOptions = (agentId: number) => generated.listTriggerEventsOptions(ofAgent(agentId));
export const triggerEventsQueryKey = (agentId: number) =>
  generated.listTriggerEventsQueryKey(ofAgent(agentId));
export const triggerSecretOptions = (agentId: number) => generated.getTriggerSecretOptions(ofAgent(agentId));
export const triggerSecretQueryKey = (agentId: number) =>
  generated.getTriggerSecretQueryKey(ofAgent(agentId));
export {
  deleteTriggerSecretMutation,
  rotateTriggerSecretMutation,
} from '../../../client/@tanstack/react-query.gen';

/** Where a host posts an event for the agent; `apiUrl` is the runtime configuration's, maybe relative. */
export function triggerUrl(apiUrl: string, agentId: number, triggerId: string): string {
  const base = new URL(apiUrl.replace(/\/*$/, '/'), window.location.href);
  return new URL(`api/v1/agents/${agentId}/triggers/${triggerId}`, base).href;
}
