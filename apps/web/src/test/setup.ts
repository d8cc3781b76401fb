import { configure } from '@testing-library/react';

// The cleanup, matchers and matchMedia stub are in the shared vitest.jsdom-setup.ts at the root.

// TanStack Router restores scroll positions; jsdom does not implement scrolling.
window.scrollTo = () => {};

// Chakra's menus and dialogs measure elements; jsdom has no ResizeObserver.
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Screens load through the router and the fake API; on a busy machine that can outlast the
// default 1 s of findBy/waitFor.
configure({ asyncUtilTimeout: 3000 });
