// Zod compiles fast parsers with `Function` after probing whether `Function('')` is allowed; our CSP
// forbids it and reports the probe as a violation (security test D2). A schema built in a chunk that
// runs before the app's entry would probe before src/lib/zod-jitless.ts says jitless, so the setting
// goes in zod's global configuration here, a classic script that runs before any module.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
