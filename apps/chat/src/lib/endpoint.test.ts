import { describe, expect, it } from 'vitest';
import { authHeaders, frameBaseUrl, frameParams } from './endpoint';

describe('frameBaseUrl', () => {
  it('talks to /demos when the frame was loaded under /demos', () => {
    expect(frameBaseUrl('/demos/')).toBe('/demos');
    expect(frameBaseUrl('/demos')).toBe('/demos');
  });

  it('talks to /chainlit everywhere else, including look-alike paths', () => {
    expect(frameBaseUrl('/chainlit/')).toBe('/chainlit');
    expect(frameBaseUrl('/chainlit/threads/1')).toBe('/chainlit');
    expect(frameBaseUrl('/demosx/')).toBe('/chainlit');
    expect(frameBaseUrl('/')).toBe('/chainlit');
  });
});

describe('the frame address and its agent', () => {
  it('reads the agent and the thread from the address', () => {
    expect(frameParams('?agent=7&thread=th-1')).toEqual({ agentId: 7, threadId: 'th-1' });
    expect(frameParams('?agent=7')).toEqual({ agentId: 7, threadId: undefined });
    expect(frameParams('')).toEqual({ agentId: undefined, threadId: undefined });
    expect(frameParams('?agent=7x')).toEqual({ agentId: undefined, threadId: undefined });
  });

  it("names the frame's agent on every request; the copilot's token is bound to its own", () => {
    const frame = { baseUrl: '/chainlit', agentId: 7, servicesUrl: '/services', linkTarget: '_top' as const };
    expect(authHeaders(frame)).toEqual({ 'X-Requested-With': 'cadre-chat', 'x-agent-id': '7' });
    expect(authHeaders({ ...frame, accessToken: 'tok' })).toEqual({ Authorization: 'Bearer tok' });
  });
});
