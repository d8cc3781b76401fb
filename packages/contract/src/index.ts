export * from './runtime-config.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './chat.ts';
