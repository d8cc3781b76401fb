/**
 * Records whether `shown()` was ever true while the DOM changed, even for a moment: a loading
 * state that flashes between two paints is caught although no assertion runs at that instant.
 */
export function watchFor(shown: () => boolean) {
  let seen = shown();
  const observer = new MutationObserver(() => {
    seen ||= shown();
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  return {
    get seen() {
      return seen;
    },
    stop: () => observer.disconnect(),
  };
}

/** Whether `text` is anywhere on the page. */
export const hasText = (text: string) => () => document.body.textContent?.includes(text) ?? false;
