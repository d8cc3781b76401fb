import { describe, expect, it } from 'vitest';
import { frameBaseUrl } from './endpoint';

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
