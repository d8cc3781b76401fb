import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVault, loadOrCreateKeyFile, parseSecretsKey, VaultError } from './vault.ts';

const key = Buffer.alloc(32, 7);

describe('vault', () => {
  it('round-trips a secret and never stores the plaintext', () => {
    const vault = createVault(key);
    const sealed = vault.seal('sk-canary-1234');
    expect(sealed).not.toContain('sk-canary');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(vault.open(sealed)).toBe('sk-canary-1234');
    expect(vault.seal('same')).not.toBe(vault.seal('same'));
  });

  it('refuses tampered data and the wrong key', () => {
    const sealed = createVault(key).seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => createVault(key).open(`${parts[0]}.${parts[1]}.${body.toString('base64url')}`)).toThrow(
      VaultError,
    );
    expect(() => createVault(Buffer.alloc(32, 8)).open(sealed)).toThrow(VaultError);
    expect(() => createVault(key).open('plain text')).toThrow(VaultError);
  });

  it('parses hex and base64 keys and rejects other lengths', () => {
    expect(parseSecretsKey('ab'.repeat(32))?.length).toBe(32);
    expect(parseSecretsKey(Buffer.alloc(32, 1).toString('base64'))?.length).toBe(32);
    expect(parseSecretsKey('short')).toBeUndefined();
  });

  it('creates the key file once with mode 0600 and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-vault-'));
    const first = loadOrCreateKeyFile(dir);
    expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKeyFile(dir).equals(first)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
