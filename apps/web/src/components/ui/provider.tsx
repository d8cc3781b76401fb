import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { system, useSystemColorMode } from '@cadre/ui';
import { Toaster } from './toaster';

export function UiProvider({ children }: { children: ReactNode }) {
  useSystemColorMode();
  return (
    <ChakraProvider value={system}>
      {children}
      <Toaster />
    </ChakraProvider>
  );
}
