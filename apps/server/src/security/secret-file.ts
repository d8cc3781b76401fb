import fs from 'node:fs';
import path from 'node:path';

/**
 * A secret kept in a file of the data folder: read as it is, or on first use written with
 * `create()`'s text, readable by the owner only (0600). The 'wx' flag fails if another instance
 * created the file meanwhile; then its text is read, so every instance ends up with the same one.
 */
export function readOrCreateSecretFile(file: string, create: () => string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = create();
  try {
    fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8');
    throw err;
  }
}
