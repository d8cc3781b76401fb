import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onVisible` when `target` scrolls into view within `root` (the scrolling list; the page
 * when absent), while `enabled`. A new observer reports at once whether the target is already in
 * view, so a list too short to scroll keeps loading until it fills its box or ends.
 */
export function useInView(
  target: RefObject<Element | null>,
  onVisible: () => void,
  enabled: boolean,
  root?: RefObject<Element | null>,
) {
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  useEffect(() => {
    const element = target.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { root: root?.current ?? null, rootMargin: '200px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, root, enabled]);
}
