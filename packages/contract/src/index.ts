export * from './runtime-config.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './chat.ts';
export * from './agents.ts';
export * from './users.ts';
export * from './auth.ts';
export * from './services.ts';
