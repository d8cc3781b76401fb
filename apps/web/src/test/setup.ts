// The cleanup, matchers and matchMedia stub are in the shared vitest.jsdom-setup.ts at the root.

// TanStack Router restores scroll positions; jsdom does not implement scrolling.
window.scrollTo = () => {};
