import { act, waitFor } from '@testing-library/react';
import { vi } from 'vitest';

type Callback = (entries: { isIntersecting: boolean; target: Element }[]) => void;

/**
 * jsdom lays nothing out, so nothing ever scrolls into view: this IntersectionObserver reports only
 * when the test says an element came into view, as scrolling to it would. The test file restores
 * the real one with `vi.unstubAllGlobals()` after each test.
 */
export function installIntersectionObserver() {
  const observers = new Set<{ callback: Callback; targets: Set<Element> }>();
  class FakeIntersectionObserver {
    private readonly entry: { callback: Callback; targets: Set<Element> };
    constructor(callback: Callback) {
      this.entry = { callback, targets: new Set() };
      observers.add(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.add(target);
    }
    unobserve(target: Element) {
      this.entry.targets.delete(target);
    }
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  return {
    /**
     * The person scrolled `element` into view: every observer watching it hears so. A list makes its
     * observer in an effect, which can run after the element is already on screen (the first page's
     * text shows before React flushes passive effects on a busy machine): wait for one first.
     */
    async scrollIntoView(element: Element) {
      await waitFor(() => {
        if (![...observers].some(({ targets }) => targets.has(element)))
          throw new Error('nothing observes the element yet');
      });
      act(() => {
        for (const { callback, targets } of [...observers])
          if (targets.has(element)) callback([{ isIntersecting: true, target: element }]);
      });
    },
  };
}
