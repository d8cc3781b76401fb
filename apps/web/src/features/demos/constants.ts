import { DEMOS, type DemoName } from '@cadre/contract';

/** The demos redirect (spec sections 2, 3, 7, 9). */
export const DEMO_NAMES = DEMOS.map((demo) => demo.name);
export type { DemoName };
export const DEMO_USERNAME = 'anonymous-user';
export const DEMO_TEXT = { invalid: 'Invalid Demo', redirecting: 'Redirecting...' } as const;

export const isDemoName = (value: unknown): value is DemoName =>
  typeof value === 'string' && (DEMO_NAMES as readonly string[]).includes(value);
