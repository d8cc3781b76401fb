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

// A browser resolves a request's relative URL against the page; Node's Request, which the generated
// client builds from the frame's mount (`/chainlit/...`), has no page: jsdom's address stands in.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
};
