import { createToaster } from '@chakra-ui/react';
import { lazy, Suspense } from 'react';
import { usePainted } from '@cadre/ui';

/**
 * The one toaster of the app; features call `toaster.create({title, description, type, duration})`.
 * Toasts overlap in one pile (it spreads out on hover), so a burst of them, such as one "Action
 * added" per click in the actions dialog, never covers the buttons the person is clicking. No cap
 * on how many: a capped toaster queues the rest and shows them seconds later, over the next screen.
 */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, overlap: true });

// The toasts' display (Chakra's toast machines and the state-machine runtime they bring) is its own
// chunk, requested once the first screen has painted (a request made earlier could finish first on
// a busy page and hold the paint up, docs/benchmarks.md): no toast is asked for before
// the first paint, and one created before the chunk arrives is shown when it does (the toaster keeps
// it, and the toast group starts from the toaster's visible toasts).
const ToastList = lazy(() => import('./toast-list').then((m) => ({ default: m.ToastList })));

export function Toaster() {
  const painted = usePainted();
  if (!painted) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}
