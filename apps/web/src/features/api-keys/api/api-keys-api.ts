/**
 * The API keys calls as the screen uses them: the generated SDK's query options and mutations, so
 * paths and query keys are never retyped.
 */
import type { CreateApiKeyData, ListApiKeysResponse } from '../../../client/types.gen';

export type ApiKey = ListApiKeysResponse[number];
export type ApiKeyScope = ApiKey['scopes'][number];
export type ApiKeyCreate = CreateApiKeyData['body'];

export {
  createApiKeyMutation,
  listAgentsOptions,
  listApiKeysOptions,
  listApiKeysQueryKey,
  revokeApiKeyMutation,
  updateApiKeyMutation,
} from '../../../client/@tanstack/react-query.gen';

/** The scopes a key can have, with what each lets the key's holder do. */
export const SCOPES: { value: ApiKeyScope; label: string }[] = [
  { value: 'agents:read', label: 'agents:read: list and read your agents' },
  { value: 'chat', label: 'chat: chat with your agents' },
  { value: 'copilot:mint', label: 'copilot:mint: sign in your site’s visitors to the copilot' },
];
