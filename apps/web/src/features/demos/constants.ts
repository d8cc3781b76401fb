/** The demos redirect (spec sections 2, 3, 7, 9). */
export const DEMO_NAMES = ['vcdemo', 'customerservicedemo', 'salesoutreachdemo'] as const;
export type DemoName = (typeof DEMO_NAMES)[number];
export const DEMO_LABELS: Record<DemoName, string> = {
  vcdemo: 'VC Analyst',
  customerservicedemo: 'Customer Support',
  salesoutreachdemo: 'Sales Assistant',
};
export const DEMO_USERNAME = 'anonymous-user';
export const DEMO_TEXT = { invalid: 'Invalid Demo', redirecting: 'Redirecting...' } as const;

export const isDemoName = (value: unknown): value is DemoName =>
  typeof value === 'string' && (DEMO_NAMES as readonly string[]).includes(value);
