import { useEffect, useRef } from 'react';

/** Esc stops a running answer wherever the focus is in the frame. */
export function useEscapeToStop(busy: boolean, onStop: () => void) {
  const stopRef = useRef(onStop);
  useEffect(() => {
    stopRef.current = onStop;
  });
  useEffect(() => {
    if (!busy) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') stopRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy]);
}
