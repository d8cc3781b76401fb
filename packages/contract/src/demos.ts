/** The public demos (spec section 3, "Demo names"), with the title a visitor sees. */
export const DEMOS = [
  { name: 'vcdemo', title: 'VC analyst' },
  { name: 'customerservicedemo', title: 'Customer support' },
  { name: 'salesoutreachdemo', title: 'Sales outreach' },
] as const;

export type DemoName = (typeof DEMOS)[number]['name'];

/** The web app's page that starts a demo (spec section 2). */
export const demoStartPath = (name: DemoName) => `/public/demosRedirect?demo=${name}`;
