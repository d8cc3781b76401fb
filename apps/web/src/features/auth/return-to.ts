/**
 * Where to go after sign-in (security test I2): only a relative path inside the app, on the list
 * of the shell's sections (sign-in-first.test.ts checks that every page of the shell is kept) and
 * the copilot. Anything else (`//evil.com`, `/\evil.com`, `https://…`, `javascript:…`,
 * `%2F%2Fevil.com`) falls back to `/`.
 */
const ALLOWED_SECTIONS = [
  '/info',
  '/agents',
  '/services',
  '/usage',
  '/api-keys',
  '/admin',
  '/debug_info',
  '/copilot',
];

export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return '/';
  }
  if (
    !value.startsWith('/') ||
    value.startsWith('//') ||
    /[\\\s]/.test(decoded) ||
    decoded.startsWith('//')
  ) {
    return '/';
  }
  if ([...decoded].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return '/';
  let url: URL;
  try {
    url = new URL(value, 'https://cadre.invalid');
  } catch {
    return '/';
  }
  if (url.origin !== 'https://cadre.invalid') return '/';
  const allowed = ALLOWED_SECTIONS.some(
    (section) => url.pathname === section || url.pathname.startsWith(`${section}/`),
  );
  return allowed ? `${url.pathname}${url.search}${url.hash}` : '/';
}
