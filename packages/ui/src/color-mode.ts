import { useEffect, useSyncExternalStore } from 'react';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Where the person's choice is kept; the chat frame (same origin) reads it too. */
export const COLOR_MODE_KEY = 'cadre-color-mode';
/** Told within the page when the choice changes (`storage` events reach only other pages). */
const CHANGE_EVENT = 'cadre-color-mode-change';

export type ColorModePreference = 'light' | 'dark' | 'system';

export function colorModePreference(): ColorModePreference {
  try {
    const stored = window.localStorage.getItem(COLOR_MODE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Remembers the choice and applies it to every Cadre page open in this browser. */
export function setColorModePreference(preference: ColorModePreference) {
  try {
    if (preference === 'system') window.localStorage.removeItem(COLOR_MODE_KEY);
    else window.localStorage.setItem(COLOR_MODE_KEY, preference);
  } catch {
    // storage may be refused (private mode); the choice then lasts until the page is left
  }
  window.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: preference }));
}

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The current choice, re-rendering when it changes here or in another tab. */
export function useColorModePreference(): ColorModePreference {
  return useSyncExternalStore(subscribe, colorModePreference, () => 'system');
}

/**
 * Applies the person's choice, or the system's light or dark setting when they chose "system".
 * Chakra styles dark mode from a `dark` class on <html> (no inline script, which the CSP refuses).
 */
export function useSystemColorMode() {
  const preference = useColorModePreference();
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const apply = () => {
      const dark = preference === 'dark' || (preference === 'system' && media.matches);
      document.documentElement.classList.toggle('dark', dark);
      document.documentElement.classList.toggle('light', !dark);
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [preference]);
}
