import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { ToolProvider } from '../tools/index.ts';
import { checkProviderRedirect } from './oauth-flow.ts';

const config = loadConfig({ EGRESS_ALLOW_PRIVATE: '127.0.0.1' });
const provider = (redirectHosts?: string[]) => ({ id: 'composio', redirectHosts }) as unknown as ToolProvider;
const composio = provider(['backend.composio.dev', 'composio.dev']);

describe('I3: links a provider sends the browser to', () => {
  it('I3: passes https links on the provider’s hosts and their subdomains', () => {
    expect(checkProviderRedirect(config, composio, 'https://connect.composio.dev/link/ln_1')).toBe(
      'https://connect.composio.dev/link/ln_1',
    );
    expect(checkProviderRedirect(config, composio, 'https://backend.composio.dev/s/x?a=1')).toBe(
      'https://backend.composio.dev/s/x?a=1',
    );
    // A provider running locally (tests, development) when the operator allowed its address.
    expect(checkProviderRedirect(config, composio, 'http://127.0.0.1:9000/authorize')).toBe(
      'http://127.0.0.1:9000/authorize',
    );
  });

  it('I3: refuses other schemes, other hosts, look-alikes and unparseable links', () => {
    for (const link of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://connect.composio.dev/link/ln_1',
      'https://evil.example/phish',
      'https://composio.dev.evil.example/',
      'https://evilcomposio.dev/',
      'http://10.0.0.1/authorize',
      'not a url',
    ]) {
      expect(() => checkProviderRedirect(config, composio, link), link).toThrow(/sign-in link/);
    }
    // A provider without browser flows has no host at all.
    expect(() => checkProviderRedirect(config, provider(), 'https://anything.example/')).toThrow(
      /unexpected host/,
    );
  });
});
