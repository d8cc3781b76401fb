import crypto from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from './secret-file.ts';

/**
 * The secrets vault: the one place credentials (API keys, OAuth tokens, PKCE verifiers) are
 * encrypted and decrypted. AES-256-GCM with a random 96-bit nonce per value; the sealed form is
 * `v1.<nonce>.<ciphertext+tag>` in base64url, so a stored value never contains the plaintext.
 * The key comes from SECRETS_KEY, or on the embedded default from `<data>/secrets.key` (mode 0600),
 * generated on first start. Losing the key makes stored credentials unreadable: users reconnect.
 */
export interface Vault {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';

export class VaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultError';
  }
}

export function createVault(key: Buffer): Vault {
  if (key.length !== 32) throw new VaultError('The secrets key must be 32 bytes');
  return {
    seal(plaintext) {
      const nonce = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, nonceText, bodyText] = sealed.split('.');
      if (version !== VERSION || !nonceText || !bodyText) throw new VaultError('Not a sealed value');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(nonceText, 'base64url'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      try {
        return Buffer.concat([
          decipher.update(body.subarray(0, body.length - 16)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new VaultError('A sealed value could not be opened (wrong key or tampered data)');
      }
    },
  };
}

/** Parses SECRETS_KEY: 32 bytes as 64 hex characters or as base64. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : undefined;
}

/** Reads the key file in the data folder, creating it (0600) on first use. */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secrets.key');
  const key = parseSecretsKey(readOrCreateSecretFile(file, () => crypto.randomBytes(32).toString('hex')));
  if (!key) throw new VaultError(`${file} does not hold a 32-byte key`);
  return key;
}

/**
 * HMAC-SHA-256 (hex) under a key HKDF derives from the vault key `secret` for one purpose
 * (`purpose`, e.g. `cadre/api-key-hash/v1`): a table can keep what recognises a value without
 * holding the value, and no second key is kept.
 */
export function keyedHasher(secret: Buffer, purpose: string): (text: string) => string {
  const key = Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));
  return (text) => crypto.createHmac('sha256', key).update(text).digest('hex');
}
