import '../lib/zod-jitless';
import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode, useEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatApp } from '../components/chat-app';
import { frameBaseUrl, frameEndpoint } from '../lib/endpoint';
import { system } from '../theme';
import { useSystemColorMode } from '@cadre/ui';
import { createParentMessageListener, notifyParent } from './parent-channel';

function Frame() {
  useSystemColorMode();
  const endpoint = useMemo(() => frameEndpoint(), []);
  const threadRef = useRef<string | null>(null);
  useEffect(() => {
    const listener = createParentMessageListener({
      origin: window.location.origin,
      parent: window.parent === window ? null : window.parent,
      currentThreadId: () => threadRef.current,
      reply: notifyParent,
    });
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);
  return (
    <ChatApp
      endpoint={endpoint}
      variant="frame"
      demo={frameBaseUrl(window.location.pathname) === '/demos'}
      storage={window.sessionStorage}
      onThreadChange={(threadId) => {
        threadRef.current = threadId;
        notifyParent({ type: 'cadre-chat:thread', threadId });
      }}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <Frame />
    </ChakraProvider>
  </StrictMode>,
);
