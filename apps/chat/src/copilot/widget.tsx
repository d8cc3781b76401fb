import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { Box, ChakraProvider, Flex, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ChatApp } from '../components/chat-app';
import type { HostFunctionCall } from '../components/use-conversation-chat';
import { copilotEndpoint } from '../lib/endpoint';
import { copilotSystem } from '../theme';

/** The options host pages pass to `window.mountChainlitWidget` (Chainlit's IWidgetConfig subset). */
export interface WidgetConfig {
  chainlitServer: string;
  accessToken?: string;
  theme?: 'light' | 'dark';
  button?: { containerId?: string; className?: string };
  opened?: boolean;
}

export const NO_TOKEN = 'No authentication token provided.';

/**
 * Asks the host page to run a function: dispatches `chainlit-call-fn` with `{name, args, callback}`
 * and resolves with what the page passes to the callback (the first call wins).
 */
export function callHostFunction(call: Pick<HostFunctionCall, 'name' | 'args'>): Promise<unknown> {
  return new Promise((resolve) => {
    let settled = false;
    const callback = (result: unknown) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    window.dispatchEvent(
      new CustomEvent('chainlit-call-fn', { detail: { name: call.name, args: call.args, callback } }),
    );
  });
}

let toggleOpen: (() => void) | null = null;

function Widget({ config }: { config: WidgetConfig }) {
  const [open, setOpen] = useState(!!config.opened);
  useEffect(() => {
    toggleOpen = () => setOpen((v) => !v);
    return () => {
      toggleOpen = null;
    };
  }, []);
  const endpoint = useMemo(
    () => copilotEndpoint(config.chainlitServer, config.accessToken),
    [config.chainlitServer, config.accessToken],
  );
  return (
    <>
      {open && (
        <Box
          position="fixed"
          bottom="84px"
          right="16px"
          w="min(420px, calc(100vw - 32px))"
          h="min(640px, calc(100vh - 110px))"
          bg="bg"
          color="fg"
          borderWidth="1px"
          borderRadius="xl"
          boxShadow="lg"
          overflow="hidden"
          zIndex={2147483000}
          data-testid="copilot-panel"
          fontFamily="body"
          fontSize="md"
        >
          {config.accessToken ? (
            <ChatApp
              endpoint={endpoint}
              variant="copilot"
              storage={window.localStorage}
              onCallFunction={(call) => callHostFunction(call)}
            />
          ) : (
            <Flex h="full" align="center" justify="center" p="6">
              <Text>{NO_TOKEN}</Text>
            </Flex>
          )}
        </Box>
      )}
      {!config.button?.containerId && (
        <Box
          as="button"
          position="fixed"
          bottom="16px"
          right="16px"
          w="56px"
          h="56px"
          borderRadius="full"
          bg="brand.solid"
          color="brand.contrast"
          boxShadow="lg"
          fontSize="2xl"
          cursor="pointer"
          zIndex={2147483000}
          aria-label={open ? 'Close the chat' : 'Open the chat'}
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          id="chainlit-copilot-button"
        >
          {open ? '✕' : '💬'}
        </Box>
      )}
    </>
  );
}

let mounted: { root: Root; host: HTMLElement } | null = null;

/** Mounts the widget in `div#chainlit-copilot` with an open shadow root; styles go into that root. */
export function mountWidget(config: WidgetConfig) {
  unmountWidget();
  const host = document.createElement('div');
  host.id = 'chainlit-copilot';
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const styles = document.createElement('div');
  styles.id = 'cl-shadow-styles';
  shadow.appendChild(styles);
  const scheme = document.createElement('div');
  const dark =
    config.theme === 'dark' ||
    (config.theme === undefined && window.matchMedia?.('(prefers-color-scheme: dark)').matches);
  scheme.className = dark ? 'dark' : 'light';
  scheme.id = 'cl-shadow-root';
  const container = document.createElement('div');
  container.className = 'cadre-copilot-root';
  scheme.appendChild(container);
  shadow.appendChild(scheme);
  const cache = createCache({ key: 'cadre', container: styles });
  const root = createRoot(container);
  root.render(
    <CacheProvider value={cache}>
      <ChakraProvider value={copilotSystem}>
        <Widget config={config} />
      </ChakraProvider>
    </CacheProvider>,
  );
  mounted = { root, host };
}

export function unmountWidget() {
  if (!mounted) return;
  mounted.root.unmount();
  mounted.host.remove();
  mounted = null;
}

export function toggleWidget() {
  toggleOpen?.();
}
