// The cleanup, matchers and matchMedia stub are in the shared vitest.jsdom-setup.ts at the root.

// TanStack Router restores scroll positions; jsdom does not implement scrolling.
window.scrollTo = () => {};

// Chakra's menus and dialogs measure elements; jsdom has no ResizeObserver.
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
