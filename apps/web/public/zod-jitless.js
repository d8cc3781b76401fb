// Zod compiles fast parsers with `Function` after probing whether `Function('')` is allowed; our CSP
// forbids it and reports the probe as a violation (security test D2). The setting goes in zod's
// global configuration here, a classic script that runs before any module, so it holds for every
// chunk that builds a schema, whichever runs first.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
