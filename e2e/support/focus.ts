import type { Page } from '@playwright/test';

/** What the focused element is, and whether its focus shows, as `focusStop` finds it. */
export interface FocusStop {
  /** Role or tag, then accessible name or text, to name the stop in a failure. */
  name: string;
  /** The focused element (or, around it, its label or wrapper) looks different from unfocused. */
  ringed: boolean;
  /** Nothing (the page itself) is focused. */
  none: boolean;
}

/**
 * Run in the page: the element with the focus (inside a same-origin frame: the frame's), its
 * outline, box-shadow and border, and those of its two nearest ancestors (a radio's ring is on its
 * label), computed with the focus and then without it; a stop is ringed when any differ visibly.
 * Between blur and focus it waits a frame, for rings a script draws (Ark's data-focus-visible).
 * A string, because the functions tsx compiles call a helper the page does not have.
 */
const FOCUS_STOP = `(async () => {
  let doc = document;
  let element = doc.activeElement;
  while (element && element.tagName === 'IFRAME' && element.contentDocument) {
    doc = element.contentDocument;
    element = doc.activeElement;
  }
  if (!element || element === doc.body || element === doc.documentElement)
    return { name: 'none', ringed: false, none: true };
  const view = doc.defaultView;
  const frame = () => new Promise((resolve) => view.requestAnimationFrame(resolve));
  const looked = [element, element.parentElement, element.parentElement && element.parentElement.parentElement]
    .filter(Boolean);
  const look = () =>
    looked.map((el) => {
      const style = view.getComputedStyle(el);
      const outline =
        style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && style.outlineColor !== 'rgba(0, 0, 0, 0)'
          ? style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor + ' ' + style.outlineOffset
          : 'none';
      return [outline, style.boxShadow, style.borderTopColor, style.borderTopWidth].join(' | ');
    });
  const focused = look();
  element.blur();
  await frame();
  const unfocused = look();
  element.focus({ preventScroll: true });
  await frame();
  const ringed = focused.some((value, i) => value !== unfocused[i]);
  const label = element.getAttribute('aria-label') || (element.labels && element.labels[0] && element.labels[0].textContent) ||
    element.getAttribute('title') || element.textContent || element.getAttribute('placeholder') || '';
  const role = element.getAttribute('role') || element.tagName.toLowerCase() + (element.type ? '[' + element.type + ']' : '');
  return { name: role + ' "' + label.trim().replace(/\\s+/g, ' ').slice(0, 60) + '"', ringed, none: false };
})()`;

export const focusStop = (page: Page) => page.evaluate<FocusStop>(FOCUS_STOP);

/**
 * Presses Tab from the top of the page until the focus comes back to where it started (or leaves
 * the page), at most `limit` times; answers every stop whose focus does not show.
 */
export async function stopsWithoutRing(page: Page, limit = 80): Promise<string[]> {
  const missing: string[] = [];
  const seen: string[] = [];
  // From the top: the body, focused for a moment, is where the next Tab starts.
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    const stop = await focusStop(page);
    if (stop.none) break;
    // Back at the first stop: the walk has gone round.
    if (seen.length > 1 && stop.name === seen[0]) break;
    seen.push(stop.name);
    if (!stop.ringed) missing.push(stop.name);
  }
  return missing;
}
