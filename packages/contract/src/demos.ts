/** The public demos (spec section 3, "Demo names"), titled by the name of their agent. */
export const DEMOS = [
  { name: 'vcdemo', title: 'VC Analyst' },
  { name: 'customerservicedemo', title: 'Customer Support' },
  { name: 'salesoutreachdemo', title: 'Sales Assistant' },
] as const;

/** The demo login's session cookie (HttpOnly, Path=/demos); only its hash is stored. */
export const DEMO_SESSION_COOKIE = 'cadre_demo_session';

export type DemoName = (typeof DEMOS)[number]['name'];

/** The web app's page that starts a demo (spec section 2). */
export const demoStartPath = (name: DemoName) => `/public/demosRedirect?demo=${name}`;
