/** Setup shared by the jsdom projects (web, chat); each app's own src/test/setup.ts adds its shims. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// Screens load through the router and a fake API, and every role query computes styles; on a
// 2-core CI machine running the PostgreSQL suite beside it one findBy can take several seconds
// (3 s was not enough there), so wait up to 10 s before calling an element missing.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no matchMedia; the UI provider reads the system colour scheme through it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
