// The cleanup, matchers and matchMedia stub are in the shared vitest.jsdom-setup.ts at the root.

// jsdom lacks scrollIntoView; the conversation keeps the newest message in view.
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// jsdom lacks ResizeObserver; Chakra's auto-resizing textarea observes its size.
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
