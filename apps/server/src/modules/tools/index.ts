/** The tools module as other modules use it. */
export type { ActionDefinition, ActionEffect, ServiceDefinition } from './provider.ts';
export { listLiveActions, syncActions, upsertService } from './repository.ts';
export { inputJsonSchema } from './providers/builtin/define.ts';
