import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onVisible` when `target` scrolls into view within `root` (the scrolling list; the page
 * when absent), or comes within `margin` of it (CSS margin syntax), while `enabled`. A new observer
 * reports at once whether the target is already in view, so a list too short to scroll keeps
 * loading until it fills its box or ends. The end of a paged list uses it to load the next page.
 */
export function useInView(
  target: RefObject<Element | null>,
  onVisible: () => void,
  enabled: boolean,
  { root, margin = '200px 0px' }: { root?: RefObject<Element | null>; margin?: string } = {},
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
      { root: root?.current ?? null, rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, root, margin, enabled]);
}
