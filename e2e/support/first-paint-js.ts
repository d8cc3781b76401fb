import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';

/** The JavaScript a cold load fetched before its first paint: how many files, and their gzip size. */
export interface FirstPaintJs {
  files: number;
  gzip: number;
  /** Each file's path and gzip size, largest first: where a screen's figure comes from. */
  scripts: Array<{ path: string; gzip: number }>;
}

interface Sent {
  url: string;
  wallTime: number;
  timestamp: number;
}

/**
 * Run in the document: the wall-clock time of its first paint, in milliseconds. A string, because
 * the functions tsx compiles call a helper the page does not have.
 */
const PAINTED_AT = `new Promise((resolve) => {
  const answer = () => resolve(performance.timeOrigin + performance.getEntriesByName('first-paint')[0].startTime);
  if (performance.getEntriesByName('first-paint').length) answer();
  else new PerformanceObserver(answer).observe({ type: 'paint', buffered: true });
})`;

const gzipped = new Map<string, Promise<number>>();

/** A script's size as gzip level 9 of its body (what a compressing proxy sends), fetched once per URL. */
const gzipSize = (url: string) => {
  let size = gzipped.get(url);
  if (!size) {
    size = fetch(url).then(
      async (response) => gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length,
    );
    gzipped.set(url, size);
  }
  return size;
};

/**
 * Opens `path` in a fresh context (nothing cached) and sums every JavaScript response that finished
 * loading before the document's first paint: Chromium's network events (Network.requestWillBeSent's
 * wall time, Network.loadingFinished's) against the paint timing's `first-paint`, on one clock.
 * `ready` resolves once the screen shows what it is for; the document measured is the page's or,
 * with `frame`, that of the frame whose URL matches it (the chat frame, its own document), counting
 * only the scripts whose URL matches it too (the frame's own, not the page's around it).
 */
export async function firstPaintJs(
  browser: Browser,
  options: BrowserContextOptions,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  frame?: RegExp,
): Promise<FirstPaintJs> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const sent = new Map<string, Sent>();
    const scripts = new Map<string, { url: string; finishedAt: number }>();
    const isScript = new Set<string>();
    cdp.on('Network.requestWillBeSent', (event) =>
      sent.set(event.requestId, {
        url: event.request.url,
        wallTime: event.wallTime,
        timestamp: event.timestamp,
      }),
    );
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script' || event.response.mimeType.includes('javascript'))
        isScript.add(event.requestId);
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = sent.get(event.requestId);
      if (!request || !isScript.has(event.requestId)) return;
      // Seconds on the monotonic clock, turned into wall-clock milliseconds through the request's pair.
      const finishedAt = (request.wallTime + (event.timestamp - request.timestamp)) * 1000;
      scripts.set(event.requestId, { url: request.url, finishedAt });
    });
    await cdp.send('Network.enable');
    // Frames (the chat frame) load in the page's target with Chromium's default site isolation off
    // for same-origin frames, so one session sees their requests too.
    await page.goto(path);
    await ready(page);
    const document = frame ? page.frames().find((f) => frame.test(f.url())) : page.mainFrame();
    if (!document) throw new Error(`no frame matching ${String(frame)} on ${path}`);
    const paintedAt = await document.evaluate<number>(PAINTED_AT);
    const before = [...scripts.values()].filter(
      (script) => script.finishedAt <= paintedAt && (!frame || frame.test(script.url)),
    );
    const urls = [...new Set(before.map((script) => script.url))];
    const sizes = await Promise.all(urls.map(gzipSize));
    const files = urls
      .map((url, i) => ({ path: new URL(url).pathname, gzip: sizes[i]! }))
      .sort((a, b) => b.gzip - a.gzip);
    return { files: urls.length, gzip: sizes.reduce((sum, size) => sum + size, 0), scripts: files };
  } finally {
    await context.close();
  }
}
