import { ChakraProvider } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { system } from '../../theme';
import { Toaster } from './toaster';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Follows the system's light or dark setting. Chakra styles dark mode from a `dark` class on
 * <html>; we set it from the media query (no inline script, which the CSP would refuse).
 */
function useSystemColorMode() {
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const apply = () => {
      const dark = media.matches;
      document.documentElement.classList.toggle('dark', dark);
      document.documentElement.classList.toggle('light', !dark);
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, []);
}

export function UiProvider({ children }: { children: ReactNode }) {
  useSystemColorMode();
  return (
    <ChakraProvider value={system}>
      {children}
      <Toaster />
    </ChakraProvider>
  );
}
