import fs from 'node:fs';

/**
 * Debian's Chromium, never a downloaded browser. The flags keep it from reaching out to the
 * network at start (the machine has none) and let it run as root in CI.
 */
export const CHROMIUM_ARGS = [
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
