import { describe, expect, it } from 'vitest';
import {
  authKind,
  authScheme,
  registrationOutcome,
  safeRedirectUrl,
  sortByDisplayName,
  sortServices,
  timeAgo,
} from './services-logic';

describe('services logic', () => {
  it('sorts active services first, then by name', () => {
    const sorted = sortServices([
      { name: 'Zoom', status: 'INACTIVE' as const },
      { name: 'Slack', status: 'ACTIVE' as const },
      { name: 'Asana', status: 'INACTIVE' as const },
      { name: 'Gmail', status: 'ACTIVE' as const },
    ]);
    expect(sorted.map((s) => s.name)).toEqual(['Gmail', 'Slack', 'Asana', 'Zoom']);
  });

  it('sorts actions by display name', () => {
    expect(
      sortByDisplayName([{ display_name: 'Send' }, { display_name: 'Archive' }]).map((a) => a.display_name),
    ).toEqual(['Archive', 'Send']);
  });

  it('maps auth schemes: API_KEY, NO_OAUTH and NO_AUTH, anything else is OAuth', () => {
    expect(authKind({ auth_schemes: ['API_KEY'] })).toBe('apiKey');
    expect(authKind({ auth_schemes: ['NO_OAUTH'] })).toBe('noAuth');
    expect(authKind({ auth_schemes: ['NO_AUTH'] })).toBe('noAuth');
    expect(authKind({ auth_schemes: ['OAUTH2'] })).toBe('oauth');
    expect(authKind({ auth_schemes: ['BEARER_TOKEN'] })).toBe('oauth');
    expect(authScheme({ auth_schemes: [] })).toBe('NO_AUTH');
  });

  it('decides each registration outcome of spec section 4', () => {
    expect(registrationOutcome('oauth', { redirectUrl: 'https://accounts.example.com/auth?x=1' })).toEqual({
      kind: 'redirect',
      url: 'https://accounts.example.com/auth?x=1',
    });
    expect(registrationOutcome('oauth', { redirectUrl: null, connectionStatus: 'ACTIVE' })).toEqual({
      kind: 'active',
    });
    expect(registrationOutcome('oauth', { connectionStatus: 'INITIATED' })).toEqual({ kind: 'notActive' });
    expect(registrationOutcome('apiKey', { connectionStatus: 'ACTIVE' })).toEqual({ kind: 'active' });
    expect(registrationOutcome('apiKey', { connectionStatus: 'FAILED' })).toEqual({ kind: 'notActive' });
    expect(registrationOutcome('noAuth', null)).toEqual({ kind: 'active' });
  });

  it('I3: opens only https addresses', () => {
    expect(registrationOutcome('oauth', { redirectUrl: 'javascript:alert(1)' })).toEqual({ kind: 'failed' });
    expect(registrationOutcome('oauth', { redirectUrl: 'http://accounts.example.com/auth' })).toEqual({
      kind: 'failed',
    });
    for (const refused of [
      'data:text/html,<script>1</script>',
      '/relative',
      '//evil.example/x',
      'http://localhost:9/x',
      'HTTP://accounts.example.com/auth',
      'ftp://accounts.example.com/auth',
      ' javascript:alert(1)',
    ]) {
      expect(safeRedirectUrl(refused), refused).toBeUndefined();
    }
    expect(safeRedirectUrl('HTTPS://Accounts.Example.com/auth?x=1')).toBe(
      'https://accounts.example.com/auth?x=1',
    );
  });

  it('says how long ago a time was as people say it', () => {
    const now = Date.parse('2026-05-10T12:00:00Z');
    const ago = (seconds: number) => timeAgo(new Date(now - seconds * 1000).toISOString(), now);
    expect(ago(0)).toBe('just now');
    expect(ago(59)).toBe('just now');
    expect(ago(60)).toBe('1 minute ago');
    expect(ago(5 * 60 + 30)).toBe('5 minutes ago');
    expect(ago(3 * 3600)).toBe('3 hours ago');
    expect(ago(26 * 3600)).toBe('yesterday');
    expect(ago(9 * 24 * 3600)).toBe('last week');
    expect(ago(400 * 24 * 3600)).toBe('last year');
    // A clock a little behind the server's never says "in 2 seconds".
    expect(ago(-2)).toBe('just now');
  });
});
