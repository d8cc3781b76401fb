/** What the offline model is called, for those who name it before it is loaded (index.ts). */

/** What the chat frame shows beside an answer of the offline model, and what its refusals begin with. */
export const OFFLINE_LABEL = 'Offline model — configure an LLM provider for full answers';
/** The offline model's name, as answers record it. */
export const OFFLINE_MODEL_ID = 'cadre-offline-1';
/** The AI SDK provider name it reports. */
export const OFFLINE_PROVIDER = 'cadre.offline';
