import { useEffect, useState } from 'react';

/** Long enough for any first paint; a document that has none by then (a hidden tab) goes on anyway. */
const PAINT_WAIT_MS = 3_000;

/**
 * Runs `task` once the document has painted for the first time (the browser's `first-paint`), for
 * code a screen needs soon but not for that paint: requested earlier, it could finish first on a busy
 * page and hold the paint up (docs/benchmarks.md, "First visit JS"). Without paint timing (jsdom), it
 * runs after the next frame. Returns the cancel.
 */
export function afterFirstPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    cancel();
    timer = setTimeout(task);
  };
  let cancel = () => {};
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('paint')
  ) {
    const observer = new PerformanceObserver(run);
    observer.observe({ type: 'paint', buffered: true });
    const fallback = setTimeout(run, PAINT_WAIT_MS);
    cancel = () => {
      observer.disconnect();
      clearTimeout(fallback);
    };
  } else {
    const frame = requestAnimationFrame(run);
    cancel = () => cancelAnimationFrame(frame);
  }
  return () => {
    cancel();
    clearTimeout(timer);
  };
}

/** False until the document's first paint (see afterFirstPaint). */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterFirstPaint(() => setPainted(true)), []);
  return painted;
}
