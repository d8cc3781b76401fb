import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/render';
import { loadAnalytics } from './load-analytics';

const scripts = () => [...document.head.querySelectorAll('script')].map((s) => s.src);

afterEach(() => {
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  delete window.gtag;
  delete window.dataLayer;
  delete window.hj;
});

describe('analytics scripts', () => {
  it('load nothing outside production, even with ids set', () => {
    const loaded = loadAnalytics({
      ...testConfig,
      analyticsTagId: 'G-1',
      heatmapTracking: { siteId: 5, version: 6 },
    });
    expect(loaded).toEqual([]);
    expect(scripts()).toEqual([]);
  });

  it('load nothing in production without ids', () => {
    expect(loadAnalytics({ ...testConfig, isProduction: true, isDevelopment: false })).toEqual([]);
    expect(scripts()).toEqual([]);
  });

  it('load the analytics tag and the session recorder in production when configured', () => {
    const loaded = loadAnalytics({
      ...testConfig,
      isProduction: true,
      isDevelopment: false,
      analyticsTagId: 'G-ABC',
      heatmapTracking: { siteId: 123, version: 6 },
    });
    expect(loaded).toEqual(['analytics', 'session-recording']);
    expect(scripts()).toEqual([
      'https://www.googletagmanager.com/gtag/js?id=G-ABC',
      'https://static.hotjar.com/c/hotjar-123.js?sv=6',
    ]);
    expect(window.dataLayer?.length).toBe(2);
  });
});
