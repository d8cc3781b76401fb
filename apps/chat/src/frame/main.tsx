import '../lib/zod-jitless';
import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode, useEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatApp } from '../components/chat-app';
import { frameBaseUrl, frameEndpoint, frameParams } from '../lib/endpoint';
import { system } from '../theme';
import { useSystemColorMode } from '@cadre/ui';
import { createParentMessageListener, notifyParent } from './parent-channel';

/**
 * The frame's own address follows the thread shown (without a new history step), so reloading
 * the frame alone reopens it.
 */
function keepThreadInAddress(threadId: string | null) {
  const url = new URL(window.location.href);
  if (threadId) url.searchParams.set('thread', threadId);
  else url.searchParams.delete('thread');
  window.history.replaceState(window.history.state, '', url);
}

function Frame() {
  useSystemColorMode();
  const endpoint = useMemo(() => frameEndpoint(), []);
  // A frame opened for an agent (the web app's) opens the thread its address names, else a new
  // chat; a frame without one reopens the thread last open in this tab.
  const initialThreadId = useMemo(() => {
    const params = frameParams(window.location.search);
    return params.threadId ?? (params.agentId === undefined ? undefined : null);
  }, []);
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
      initialThreadId={initialThreadId}
      onThreadChange={(threadId, history) => {
        threadRef.current = threadId;
        if (endpoint.agentId !== undefined) keepThreadInAddress(threadId);
        notifyParent({ type: 'cadre-chat:thread', threadId, history });
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
