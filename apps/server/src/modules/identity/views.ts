import type { FastifyReply } from 'fastify';

/**
 * The provider's pages: plain HTML rendered on the server, styled like Cadre (teal brand, system
 * font, light and dark), with no scripts and no external assets so the strict CSP holds. Every
 * value is escaped through `html`; only `SafeHtml` produced here is inserted unescaped.
 */
/** Sends one of these pages: never cached, since each answers one person's sign-in. */
export function sendPage(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}

export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

type Value = string | number | SafeHtml | undefined | null | false | Value[];

function render(value: Value): string {
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof SafeHtml) return value.value;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  return new SafeHtml(
    strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''),
  );
}

const DARK = `color-scheme: dark; --brand: #2dd4bf; --brand-hover: #5eead4; --bg: #0b1120; --card: #111827;
  --fg: #e2e8f0; --muted: #94a3b8; --border: #334155; --error: #fca5a5; --error-bg: #450a0a; --focus: #5eead4;`;

/**
 * The theme is the one chosen in the web app when there is one (theme.js marks it on <html>, see
 * THEME_SCRIPT), else the system's.
 */
const STYLES = `
:root { color-scheme: light; --brand: #0f766e; --brand-hover: #115e59; --bg: #f8fafc; --card: #ffffff;
  --fg: #0f172a; --muted: #475569; --border: #cbd5e1; --error: #b91c1c; --error-bg: #fef2f2; --focus: #14b8a6; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { ${DARK} }
}
:root[data-theme="dark"] { ${DARK} }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; }
main { width: 100%; max-width: 26rem; padding: 1.5rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 0.75rem; padding: 2rem;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.brand { color: var(--brand); font-weight: 700; font-size: 1.5rem; margin: 0 0 0.25rem; }
h1 { font-size: 1.25rem; margin: 0 0 1.25rem; }
p { margin: 0 0 1rem; color: var(--muted); }
label { display: block; font-weight: 600; margin: 0 0 0.25rem; }
.field { margin-bottom: 1rem; }
.hint { font-size: 0.875rem; color: var(--muted); margin: 0.25rem 0 0; }
.field-error { font-size: 0.875rem; color: var(--error); margin: 0.25rem 0 0; }
input { width: 100%; padding: 0.6rem 0.75rem; font: inherit; color: var(--fg); background: var(--card);
  border: 1px solid var(--border); border-radius: 0.375rem; }
input[aria-invalid="true"] { border-color: var(--error); }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
button { width: 100%; padding: 0.65rem 1rem; font: inherit; font-weight: 600; color: #fff; background: #0f766e;
  border: 0; border-radius: 0.375rem; cursor: pointer; }
button:hover { background: #115e59; }
button.secondary { background: transparent; color: var(--fg); border: 1px solid var(--border); margin-top: 0.5rem; }
.alert { background: var(--error-bg); color: var(--error); border: 1px solid var(--error); border-radius: 0.375rem;
  padding: 0.75rem; margin-bottom: 1rem; }
.switch { margin-top: 1.25rem; text-align: center; color: var(--muted); }
a { color: var(--brand); }
`;

/**
 * Marks <html> with the theme chosen in the web app, which keeps it in this origin's storage
 * under `cadre-color-mode` (COLOR_MODE_KEY in packages/ui/src/color-mode.ts); none: the system's.
 */
export const THEME_SCRIPT = `try {
  var mode = localStorage.getItem('cadre-color-mode');
  if (mode === 'light' || mode === 'dark') document.documentElement.dataset.theme = mode;
} catch (e) {}
`;

export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <!-- The web app's icon; without it the browser asks for /favicon.ico, which is not found. -->
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
        <title>${title} · Cadre</title>
        <!-- Before the first paint: the theme chosen in the web app (no inline scripts under the CSP). -->
        <script src="/idp/assets/theme.js"></script>
        <style>
          ${new SafeHtml(STYLES)}
        </style>
      </head>
      <body>
        <main>
          <div class="card">
            <p class="brand">Cadre</p>
            ${body}
          </div>
        </main>
      </body>
    </html>`.value;
}

function alert(message?: string) {
  return message ? html`<div class="alert" role="alert" id="form-error">${message}</div>` : '';
}

function field(options: {
  id: string;
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  error?: string;
  hint?: string;
  autofocus?: boolean;
  minlength?: number;
}) {
  const described = [options.hint ? `${options.id}-hint` : '', options.error ? `${options.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for="${options.id}">${options.label}</label>
    <input
      id="${options.id}"
      name="${options.id}"
      type="${options.type}"
      autocomplete="${options.autocomplete}"
      required${
        options.value !== undefined ? html` value="${options.value}"` : ''
      }${options.minlength ? html` minlength="${options.minlength}"` : ''}${options.autofocus ? html` autofocus` : ''}${
        options.error ? html` aria-invalid="true"` : ''
      }${described ? html` aria-describedby="${described}"` : ''}
    />
    ${options.hint ? html`<p class="hint" id="${options.id}-hint">${options.hint}</p>` : ''}
    ${options.error ? html`<p class="field-error" id="${options.id}-error">${options.error}</p>` : ''}
  </div>`;
}

export function signInPage(options: { uid: string; email?: string; error?: string }) {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
      ${alert(options.error)}
      <form method="post" action="/idp/interaction/${options.uid}/login" novalidate>
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: options.email ?? '', autofocus: !options.email })}
        ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: Boolean(options.email) })}
        <button type="submit">Sign in</button>
      </form>
      <p class="switch">
        New to Cadre? <a href="/idp/interaction/${options.uid}/signup">Create an account</a>
      </p>
      <form method="post" action="/idp/interaction/${options.uid}/abort">
        <button type="submit" class="secondary">Cancel</button>
      </form>`,
  );
}

export function signUpPage(options: {
  uid: string;
  email?: string;
  name?: string;
  error?: string;
  errors?: Partial<Record<'email' | 'password' | 'name' | 'access_code', string>>;
  minPasswordLength: number;
  /** Ask for the beta access code too: this browser has no valid proof of it. */
  askAccessCode?: boolean;
}) {
  const errors = options.errors ?? {};
  const summary =
    options.error ?? (Object.keys(errors).length ? 'Please correct the fields marked below.' : undefined);
  return page(
    'Create an account',
    html`<h1>Create an account</h1>
      ${alert(summary)}
      <form method="post" action="/idp/interaction/${options.uid}/signup" novalidate>
        ${field({ id: 'name', label: 'Name', type: 'text', autocomplete: 'name', value: options.name ?? '', error: errors.name, autofocus: true })}
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: options.email ?? '', error: errors.email })}
        ${field({
          id: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          error: errors.password,
          hint: `At least ${options.minPasswordLength} characters.`,
          minlength: options.minPasswordLength,
        })}
        ${
          options.askAccessCode
            ? field({
                id: 'access_code',
                label: 'Access code',
                type: 'password',
                autocomplete: 'off',
                error: errors.access_code,
                hint: 'Cadre is in beta: enter the access code you were given.',
              })
            : ''
        }
        <button type="submit">Create account</button>
      </form>
      <p class="switch">Already have an account? <a href="/idp/interaction/${options.uid}">Sign in</a></p>`,
  );
}

export function messagePage(title: string, message: string, options: { alert?: boolean } = {}) {
  return page(
    title,
    html`<h1>${title}</h1>
      ${options.alert ? html`<div class="alert" role="alert">${message}</div>` : html`<p>${message}</p>`}`,
  );
}

/**
 * RP-initiated logout: the provider's confirmation form (`form` comes from oidc-provider). When the
 * app sent a valid `id_token_hint` the person has already confirmed in the app, so a same-origin
 * script (allowed by `script-src 'self'`) submits the form; without scripts the button remains.
 */
export function logoutPage(form: string, autoSubmit: boolean) {
  return page(
    'Sign out',
    html`<h1>Sign out of Cadre?</h1>
      <p>You will be signed out of Cadre on this device.</p>
      ${new SafeHtml(form)}
      <button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
      ${autoSubmit ? html`<script src="/idp/assets/logout.js"></script>` : ''}`,
  );
}
