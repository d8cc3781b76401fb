import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Moves focus to the first field marked `aria-invalid` inside the returned ref's element, once the
 * render that marks it has happened: call `focusFirstInvalid()` where the errors are set.
 */
export function useFocusFirstInvalid<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusFirstInvalid = useCallback(() => setRequests((n) => n + 1), []);
  return { ref, focusFirstInvalid };
}
