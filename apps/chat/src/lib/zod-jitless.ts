import { config } from 'zod';

/**
 * Zod compiles fast parsers with `Function` after probing whether `Function('')` is allowed. Our CSP
 * (`script-src 'self'`, no 'unsafe-eval') forbids it, and the probe itself is reported as a CSP
 * violation (security test D2 requires none). Imported first by each entry point.
 */
config({ jitless: true });
