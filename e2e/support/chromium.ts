import fs from 'node:fs';

/** A name that reaches this machine but is not PUBLIC_URL's host: a page there is refused (421). */
export const OTHER_HOST = 'cadre-elsewhere.test';

/**
 * Debian's Chromium, never a downloaded browser. The flags keep it from reaching out to the
 * network at start (the machine has none) and let it run as root in CI; OTHER_HOST resolves to
 * this machine.
 */
export const CHROMIUM_ARGS = [
  `--host-resolver-rules=MAP ${OTHER_HOST} 127.0.0.1`,
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const candidate = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(candidate)) {
    throw new Error(
      `Chromium was not found at ${candidate}. Install the Debian package 'chromium' ` +
        '(apt-get install -y chromium) or set CHROME_PATH to a Chromium binary.',
    );
  }
  return candidate;
}
