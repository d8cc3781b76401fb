import fs from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dirsOf = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const SERVER = 'apps/server/src';
/**
 * Module boundaries (DESIGN.md section 3): a server module uses another only through that module's
 * `index.ts`, and the shared layers (`http/`, `db/`, `security/`, `telemetry/`, `kernel.ts`, `config.ts`,
 * `user-clock.ts`) import no module at all. Web features do not import each other; routes compose them.
 */
const boundaryZones = [
  ...dirsOf(`./${SERVER}/modules/`).map((name) => ({
    target: `${SERVER}/modules/${name}/**`,
    from: `${SERVER}/modules/*/**`,
    except: ['**/modules/*/index.ts', `**/modules/${name}/**`],
    message: `Use another module only through its index.ts.`,
  })),
  {
    target: [
      `${SERVER}/http/**`,
      `${SERVER}/db/**`,
      `${SERVER}/security/**`,
      `${SERVER}/telemetry/**`,
      `${SERVER}/kernel.ts`,
      `${SERVER}/config.ts`,
      `${SERVER}/user-clock.ts`,
    ],
    from: `${SERVER}/modules`,
    message:
      'Shared layers import no module; they declare what they need (kernel.ts, http/auth-ports.ts) and app.ts wires modules in.',
  },
  ...dirsOf('./apps/web/src/features/').map((name) => ({
    target: `apps/web/src/features/${name}/**`,
    from: 'apps/web/src/features/*/**',
    except: [`**/features/${name}/**`],
    message:
      'Features do not import each other; compose them in routes/ or share through components/ and lib/.',
  })),
];

/**
 * Security test C3: tools reach the network only through the egress guard. Outside the guard and
 * the operator-configured clients, importing a network module or calling the global fetch is a lint
 * error (apps/server/src/security-lint.test.ts proves the rule catches each kind of bypass).
 */
const NETWORK_MODULES = [
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'undici',
  'axios',
  'node-fetch',
  'got',
  'ky',
];
const networkMessage = 'Outbound requests go through modules/tools/egress.ts (security test C3).';
/**
 * Security test F1: the server runs no commands and evaluates nothing as code, so the modules that
 * would (processes, `vm`, workers that take a script string) are refused everywhere in it, the
 * network's exceptions included.
 */
const CODE_EXECUTION_MODULES = {
  child_process: 'The server never runs commands (DESIGN.md section 4; test F1).',
  vm: 'Nothing is evaluated as code (test F1).',
  worker_threads: 'Nothing is evaluated as code; a worker can run a script string (test F1).',
};
const codeExecutionPaths = Object.entries(CODE_EXECUTION_MODULES).flatMap(([name, message]) => [
  { name, message },
  { name: `node:${name}`, message },
]);
const codeExecutionImport = {
  selector: `ImportExpression[source.value=/^(node:)?(${Object.keys(CODE_EXECUTION_MODULES).join('|')})$/]`,
  message: 'The server never runs commands or evaluates code (test F1).',
};
/**
 * OpenTelemetry's Node SDK sends spans to the operator's OTLP endpoint through its own HTTP client:
 * an operator-configured client like the issuer's discovery, loaded in `telemetry/otel-sdk.ts` only.
 * Everything else uses `@opentelemetry/api`, which makes no requests.
 */
const OTEL_SDK = /^@opentelemetry\/(sdk-node|exporter-)/;
const otelMessage = 'Only src/telemetry/otel-sdk.ts loads the OpenTelemetry SDK and its exporters.';
const networkModule = `/^(node:)?(${NETWORK_MODULES.join('|')})$/`;
const networkImport = {
  selector: `ImportExpression[source.value=${networkModule}]`,
  message: networkMessage,
};
/** Globals that open connections: `fetch`, and sockets and streams a browser API brings to Node. */
const NETWORK_GLOBALS = ['fetch', 'WebSocket', 'EventSource'];
const networkGlobal = `/^(${NETWORK_GLOBALS.join('|')})$/`;
const globalObject = '/^(globalThis|global|self|window)$/';
/**
 * The ways around an import that `no-restricted-imports` and `no-restricted-globals` do not see:
 * a network global read off the global object (`globalThis.fetch`, `globalThis['WebSocket']`,
 * `const { fetch } = globalThis`), a network module loaded by a CommonJS `require`
 * (`createRequire(import.meta.url)('node:https')`, `require('net')`) or by
 * `process.getBuiltinModule`. `createRequire` stays usable for ordinary packages (`pg`,
 * `pino-pretty`) in the one form the rule can judge: its `require` called at once with the
 * module's name written there; kept in a variable, renamed, or given a computed name, it is refused.
 */
const networkBypasses = [
  {
    selector: `MemberExpression[object.name=${globalObject}]:matches([property.name=${networkGlobal}], [property.value=${networkGlobal}])`,
    message: networkMessage,
  },
  {
    selector: `VariableDeclarator[init.name=${globalObject}] > ObjectPattern > Property:matches([key.name=${networkGlobal}], [key.value=${networkGlobal}])`,
    message: networkMessage,
  },
  {
    selector: `CallExpression:matches([callee.name='require'], [callee.callee.name='createRequire'])[arguments.0.value=${networkModule}]`,
    message: networkMessage,
  },
  {
    selector: "CallExpression[callee.callee.name='createRequire']:not([arguments.0.type='Literal'])",
    message: `A module loaded with createRequire is named by a string literal, so the lint can judge it. ${networkMessage}`,
  },
  {
    selector: "CallExpression[callee.name='createRequire']:not(CallExpression > CallExpression.callee)",
    message: `createRequire's require is called at once (createRequire(import.meta.url)('pg')), never kept. ${networkMessage}`,
  },
  {
    selector:
      ":matches(ImportSpecifier[imported.name='createRequire'][local.name!='createRequire'], MemberExpression[property.name='createRequire'])",
    message: `Import createRequire by its own name, from node:module. ${networkMessage}`,
  },
  {
    selector:
      "MemberExpression[object.name='process'][property.name=/^(getBuiltinModule|binding|_linkedBinding)$/]",
    message: networkMessage,
  },
];
export const networkRules = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [{ regex: OTEL_SDK.source, message: otelMessage, allowTypeImports: true }],
      paths: [
        ...codeExecutionPaths,
        ...NETWORK_MODULES.flatMap((name) => [
          { name, message: networkMessage, allowTypeImports: true },
          { name: `node:${name}`, message: networkMessage, allowTypeImports: true },
        ]),
      ],
    },
  ],
  'no-restricted-globals': ['error', ...NETWORK_GLOBALS.map((name) => ({ name, message: networkMessage }))],
  'no-restricted-syntax': [
    'error',
    codeExecutionImport,
    networkImport,
    ...networkBypasses,
    // esquery's regular expressions cannot hold a slash: '.' stands for it.
    {
      selector: 'ImportExpression[source.value=/^@opentelemetry.(sdk-node|exporter-)/]',
      message: otelMessage,
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'apps/web/src/client/**',
      'apps/chat/src/client/**',
      'apps/web/src/routeTree.gen.ts',
      'e2e/playwright-report/**',
      'e2e/test-results/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Nothing a user or a model writes is evaluated as code (DESIGN.md section 4; test F1).
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    // Resolves `./x.ts`, folders with an index.ts and the workspace packages, so every import is judged.
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    // Zones are resolved against this file's folder, so lint run from any folder applies them.
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones, basePath: import.meta.dirname }],
    },
  },
  {
    // One job per file: a server module's file that grows past 300 lines is split (tests and the
    // demos' sample data tables are exempt).
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.test.ts', 'apps/server/src/modules/*/data/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // One job per file in the front ends too, and no component or hook that does everything: a file
    // past 300 lines, or a function past 120 (blank lines and comments aside), is split. Tests and
    // their helpers are exempt; the generated clients and route tree are not linted at all.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/chat/src/**/*.{ts,tsx}'],
    ignores: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/src/test/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: networkRules,
  },
  {
    // The egress guard itself, and clients whose URL only the operator sets: OIDC discovery of the
    // configured issuer (http/auth.ts).
    files: [
      'apps/server/src/modules/tools/egress*.ts',
      'apps/server/src/modules/tools/egress/**',
      'apps/server/src/http/auth.ts',
    ],
    rules: {
      'no-restricted-globals': 'off',
      'no-restricted-imports': ['error', { paths: codeExecutionPaths }],
      'no-restricted-syntax': ['error', codeExecutionImport],
    },
  },
  {
    // The OTLP exporter: its endpoint is the operator's (OTEL_EXPORTER_OTLP_ENDPOINT), see OTEL_SDK.
    files: ['apps/server/src/telemetry/otel-sdk.ts'],
    rules: { 'no-restricted-syntax': ['error', codeExecutionImport, networkImport, ...networkBypasses] },
  },
  {
    // Knowledge files are parsed in a worker thread with a heap limit and a deadline (E3): these two
    // files may use worker_threads, to start a worker from its own module file only, never with
    // `eval` (a script string), which is what F1 forbids.
    files: [
      'apps/server/src/modules/knowledge/extract.ts',
      'apps/server/src/modules/knowledge/extract-worker.ts',
    ],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: OTEL_SDK.source, message: otelMessage, allowTypeImports: true }],
          paths: [
            ...codeExecutionPaths.filter((p) => !p.name.endsWith('worker_threads')),
            ...NETWORK_MODULES.flatMap((name) => [
              { name, message: networkMessage, allowTypeImports: true },
              { name: `node:${name}`, message: networkMessage, allowTypeImports: true },
            ]),
          ],
        },
      ],
      'no-restricted-syntax': [
        ...networkRules['no-restricted-syntax'],
        {
          selector: "NewExpression[callee.name='Worker'] Property[key.name='eval']",
          message: 'A worker runs its own module file, never a script string (test F1).',
        },
        {
          selector: "NewExpression[callee.name='Worker'] > :first-child:matches(Literal, TemplateLiteral)",
          message: 'A worker is started from a file URL made in this module, never from a string (test F1).',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/chat/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Raw HTML is never rendered (DESIGN.md section 4; test D4).',
        },
        {
          selector: ':matches(AwaitExpression, ForOfStatement[await=true]):not(:function *)',
          message:
            'No top-level await: one module with it turns off the bundler\'s chunk optimizations for the whole build (docs/benchmarks.md, "First visit JS").',
        },
      ],
    },
  },
);
