import type { RuntimeConfig } from '@cadre/contract';

type Gtag = (...args: unknown[]) => void;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
    hj?: ((...args: unknown[]) => void) & { q?: unknown[] };
    _hjSettings?: { hjid: number; hjsv: number };
  }
}

function addScript(src: string, doc: Document) {
  const script = doc.createElement('script');
  script.async = true;
  script.src = src;
  doc.head.append(script);
  return script;
}

/**
 * Page analytics (Google tag) and session recording (Hotjar) load only in production and only when
 * their ids are configured (spec section 7). The loaders' usual inline snippets are done here in
 * our own module, so the CSP needs no 'unsafe-inline'. Returns what was loaded.
 */
export function loadAnalytics(config: RuntimeConfig, win: Window = window): string[] {
  const loaded: string[] = [];
  if (!config.isProduction) return loaded;
  const doc = win.document;
  if (config.analyticsTagId) {
    win.dataLayer = win.dataLayer ?? [];
    // gtag.js reads the arguments objects pushed onto dataLayer.
    win.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      win.dataLayer!.push(arguments);
    };
    win.gtag('js', new Date());
    win.gtag('config', config.analyticsTagId);
    addScript(
      `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(config.analyticsTagId)}`,
      doc,
    );
    loaded.push('analytics');
  }
  const { siteId, version } = config.heatmapTracking;
  if (siteId > 0) {
    const hj = ((...args: unknown[]) => {
      (hj.q = hj.q ?? []).push(args);
    }) as NonNullable<Window['hj']>;
    win.hj = win.hj ?? hj;
    win._hjSettings = { hjid: siteId, hjsv: version };
    addScript(`https://static.hotjar.com/c/hotjar-${siteId}.js?sv=${version}`, doc);
    loaded.push('session-recording');
  }
  return loaded;
}
