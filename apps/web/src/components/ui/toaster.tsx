import { Portal, Spinner, Stack, Toast, Toaster as ChakraToaster, createToaster } from '@chakra-ui/react';

/**
 * The one toaster of the app; features call `toaster.create({title, description, type, duration})`.
 * Toasts overlap in one pile (it spreads out on hover) and at most three are shown at once, so a
 * burst of them, such as one "Action added" per click in the actions dialog, never covers the
 * buttons the person is clicking.
 */
export const toaster = createToaster({
  placement: 'bottom-end',
  pauseOnPageIdle: true,
  overlap: true,
  max: 3,
});

/**
 * White text meets WCAG AA on the coloured toasts: Chakra's green.600 and orange.600 backgrounds
 * are 3.2:1 and 3.6:1, and its description is dimmed to 80 %; the 700 shades are 5:1 and more.
 */
const SOLID_AA = {
  '&[data-type=success]': { bg: 'green.700' },
  '&[data-type=warning]': { bg: 'orange.700' },
  '&[data-type=error]': { bg: 'red.700' },
} as const;

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} css={SOLID_AA}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable !== false && <Toast.CloseTrigger />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
