/** The triggers module's public face: stored trigger events and the worker that runs them. */
export { registerTriggers } from './plugin.ts';
export { triggerRoutes, type TriggerOptions } from './routes.ts';
export { createTriggersService, providerTriggerStore, type TriggersService } from './service.ts';
export { createTriggerWorker, type TriggerRun, type TriggerWorker } from './worker.ts';
export { triggersUserData } from './user-data.ts';
