import { Portal, Spinner, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { toaster } from './toaster';

/**
 * White text meets WCAG AA on the coloured toasts: Chakra's green.600 and orange.600 backgrounds
 * are 3.2:1 and 3.6:1, and its description is dimmed to 80 %; the 700 shades are 5:1 and more.
 */
const SOLID_AA = {
  '&[data-type=success]': { bg: 'green.700' },
  '&[data-type=warning]': { bg: 'orange.700' },
  '&[data-type=error]': { bg: 'red.700' },
} as const;

/**
 * The toasts on screen (loaded after the first paint, see ./toaster.tsx). A toast never takes
 * focus nor joins the Tab order (Ark makes each toast and its close button a Tab stop, which
 * put a passing "Action added" between the person and the page): it is announced as a status,
 * closes by itself, and the pointer can still close it.
 */
export function ToastList() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} css={SOLID_AA} tabIndex={-1}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable !== false && <Toast.CloseTrigger tabIndex={-1} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
