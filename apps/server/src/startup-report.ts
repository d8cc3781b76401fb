import type { Config } from './config.ts';

/** What an operator needs to know about a starting instance, without any secret. */
export interface StartupReport {
  url: string;
  database: string;
  identityProvider: string;
  model: string;
  accessCode: string;
  /** Where the access code comes from, so that it can be found again once the banner scrolled away. */
  accessCodeSource: string;
  dataDir: string;
  /** The socket address (`host:port`), for tools; people are given `url`. */
  listeningOn?: string;
}

/** `postgres://user:secret@host:5432/db?x=y` as `PostgreSQL at host:5432/db` (no credentials). */
function describeDatabase(database: Config['database']): string {
  if (database.kind === 'sqlite')
    return `SQLite at ${database.file} (one instance only; set DATABASE_URL to run several)`;
  const url = new URL(database.url);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/** The default model, and how many others agents may choose (never a key). */
function describeModel(llm: Config['llm']): string {
  const model = llm.models.find((m) => m.id === llm.defaultModel)!;
  const others = llm.models.length - 1;
  const more = others ? `; ${others} more on offer` : '';
  if (model.provider === 'offline') return `the built-in offline model (no network, no key)${more}`;
  const where = model.baseUrl ? ` at ${model.baseUrl}` : '';
  return `${model.id}: ${model.provider} ${model.model}${where}${more}`;
}

/**
 * The facts the start-up log prints. `generatedCode` is the access code generated when
 * BETA_ACCESS_CODES is empty (printed so the first person can get in).
 */
export function startupReport(
  config: Config,
  generatedCode: string | undefined,
  listeningOn?: string,
): StartupReport {
  const codes = config.accessCodes.length;
  return {
    url: config.publicUrl,
    database: describeDatabase(config.database),
    identityProvider: config.auth.disabled
      ? 'none: DISABLE_AUTH makes every request the mock user'
      : config.auth.builtInIssuer
        ? `built in, at ${config.auth.issuer}`
        : `external issuer ${config.auth.issuer}`,
    model: describeModel(config.llm),
    accessCode: generatedCode ?? `${codes} code${codes === 1 ? '' : 's'} from BETA_ACCESS_CODES`,
    accessCodeSource: generatedCode
      ? 'generated once and stored sealed in the database (printed at every start; set BETA_ACCESS_CODES to choose your own)'
      : 'the BETA_ACCESS_CODES setting',
    dataDir: config.dataDir,
    ...(listeningOn ? { listeningOn } : {}),
  };
}

/**
 * The start-up banner for a person at a terminal: the one address that works (PUBLIC_URL; sign-in
 * fails on any other), the access code the gate asks for, and what this instance runs on.
 */
export function formatBanner(report: StartupReport): string {
  const rows: [string, string][] = [
    ['Open', report.url],
    ['Access code', report.accessCode],
    ['', report.accessCodeSource],
    ['Data folder', report.dataDir],
    ['Database', report.database],
    ['Sign-in', report.identityProvider],
    ['Model', report.model],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    '',
    '  Cadre is running.',
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    '',
    '  One line per request follows. LOG_FORMAT=json writes JSON instead.',
    '',
    '',
  ].join('\n');
}
