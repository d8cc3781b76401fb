import { ChakraProvider } from '@chakra-ui/react';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { system } from '../theme';

export const renderUi = (ui: ReactElement) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);
