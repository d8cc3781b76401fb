import { config } from 'zod/mini';
import { en } from 'zod/locales';

/**
 * Zod compiles fast parsers with `Function` after probing whether `Function('')` is allowed. Our CSP
 * (`script-src 'self'`, no 'unsafe-eval') forbids it, and the probe itself is reported as a CSP
 * violation (security test D2 requires none). Imported first by each entry point; the built page
 * also sets it before any module runs (public/zod-jitless.js), because a chunk the entry imports runs
 * before the entry's own code. The app shell has Zod Mini only (the runtime configuration's schema),
 * which loads no messages of its own: English ones, as classic Zod has, explain a bad configuration.
 */
config({ jitless: true, ...en() });
