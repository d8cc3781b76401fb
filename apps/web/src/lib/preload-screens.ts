import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';

/** Runs `task` once the browser has nothing better to do (a second later where it cannot say). */
function whenIdle(task: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(task, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, 1_000);
  return () => clearTimeout(id);
}

/**
 * Loads the code of the screens at `paths` (each screen is its own chunk) once the browser is idle
 * after the first paint, so that following a link to one of them waits only for its data. Hovering
 * a link still preloads its data too (the router's `intent` preload); this never calls the API.
 */
export function usePreloadScreens(paths: readonly string[]) {
  const router = useRouter();
  const pathList = paths.join('\n');
  useEffect(
    () =>
      whenIdle(() => {
        for (const path of pathList.split('\n')) {
          for (const match of router.matchRoutes(path)) {
            const route = router.routesById[match.routeId];
            // A chunk that fails to load now is loaded again, with its error shown, on navigation.
            if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
          }
        }
      }),
    [router, pathList],
  );
}
