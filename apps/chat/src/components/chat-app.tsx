import { Box, Text } from '@chakra-ui/react';
import { afterFirstPaint } from '@cadre/ui';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { CHAT_PAGE_SIZE, createChatApi } from '../lib/api';
import type { ChatEndpoint } from '../lib/endpoint';
import { ChatHeader } from './chat-header';
import { ChatLayout } from './chat-layout';
import { ChatLoadFailed, ChatLoading, OutageNotice, SessionEnded, ThreadNotFound } from './chat-states';
import { DemoEnded, DemoFrame } from './demo-frame';
import { DemoNextSteps } from './demo-next-steps';
import { useChatSession, useSessionStart } from './use-chat-session';
import type { HostFunctionCall } from './use-conversation-chat';
import { useOpenThread, type ThreadHistory } from './use-open-thread';
import { useThreadList } from './use-thread-list';

export interface ChatAppProps {
  endpoint: ChatEndpoint;
  /** 'frame': side panel on wide screens, drawer on narrow ones. 'copilot': always a drawer. */
  variant: 'frame' | 'copilot';
  /** Where the last thread id per agent is remembered (survives a reload of the frame). */
  storage?: Storage;
  /**
   * The conversation to open: a thread id (from the page's URL), null for a new chat, or undefined
   * for the one last open with this agent (from `storage`).
   */
  initialThreadId?: string | null;
  onCallFunction?: (call: HostFunctionCall) => Promise<unknown>;
  /**
   * The conversation shown changed (null: a new chat, not saved yet): 'push' when the person picked
   * it, 'replace' for the first save of a new chat or what the chat opened with.
   */
  onThreadChange?: (threadId: string | null, history: ThreadHistory) => void;
  /** A public demo (the frame at /demos): the visitor has no agents list, so the way on is shown. */
  demo?: boolean;
}

// The conversation (the AI SDK's chat and the messages' rules) and the thread list (with its
// schemas) are chunks of their own, requested once the frame has painted its loading state and
// fetched while the session starts: the first paint needs neither (docs/benchmarks.md). A chat that
// is ready before they arrive shows them as soon as they do (loading state in the conversation's place).
const loadConversation = () => import('./conversation');
const loadThreadList = () => import('./thread-list');
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })));
const ThreadList = lazy(() => loadThreadList().then((m) => ({ default: m.ThreadList })));

/** The chat with one agent: its threads, the conversation open, and the session's states. */
export function ChatApp({
  endpoint,
  variant,
  storage,
  initialThreadId,
  onCallFunction,
  onThreadChange,
  demo,
}: ChatAppProps) {
  const api = useMemo(() => createChatApi(endpoint), [endpoint]);
  useEffect(
    () =>
      afterFirstPaint(() => {
        void loadConversation();
        void loadThreadList();
      }),
    [],
  );
  const chatSession = useChatSession();
  const { state, problem, handleFailure } = chatSession;
  const threads = useThreadList(api, chatSession);
  const { open, drawer, setDrawer, lastOpen, startNew, openThread, markSaved } = useOpenThread({
    api,
    variant,
    storage,
    onThreadChange,
    onFailure: handleFailure,
  });

  useSessionStart(api, chatSession, async (session, isCancelled) => {
    const firstPage = await api.listThreads({ limit: CHAT_PAGE_SIZE });
    if (isCancelled()) return;
    threads.showFirstPage(firstPage);
    if (initialThreadId) return await openThread(session, initialThreadId, 'replace');
    const last = initialThreadId === null ? null : lastOpen(session);
    // The thread last open may be older than the first page: asked for, it opens or is gone.
    if (last) await openThread(session, last, 'replace', 'new');
    else startNew('replace');
  });

  if (state.kind === 'loading') return <ChatLoading />;
  // The demo frame says so; a frame at /demos is a demo in any case.
  const isDemo = demo || endpoint.baseUrl.endsWith('/demos');
  if (state.kind === 'ended') return isDemo ? <DemoEnded /> : <SessionEnded />;
  if (state.kind === 'failed') return <ChatLoadFailed message={state.message} />;

  const { session } = state;
  const drawerOnly = variant === 'copilot';
  const list = (
    <Suspense>
      <ThreadList
        threads={threads.threads}
        currentId={open?.id ?? ''}
        onNew={() => startNew('push')}
        onSelect={(id) => void openThread(session, id, 'push')}
        onRename={(id, name) => void api.renameThread(id, name).then(threads.refresh, handleFailure)}
        onDelete={(id) =>
          void api.deleteThread(id).then(async () => {
            await threads.refresh();
            if (id === open?.id) startNew('replace');
          }, handleFailure)
        }
        onSearch={api.searchThreads}
        more={{ ...threads.more, onLoad: () => void threads.loadMore() }}
      />
    </Suspense>
  );
  const chat = (
    <ChatLayout
      drawerOnly={drawerOnly}
      list={list}
      drawer={drawer}
      onCloseDrawer={() => setDrawer(false)}
      header={
        <ChatHeader session={session} drawerOnly={drawerOnly} onShowConversations={() => setDrawer(true)} />
      }
    >
      <OutageNotice />
      {problem && (
        <Text role="alert" color="fg.error" fontSize="sm" px="3" py="1">
          {problem}
        </Text>
      )}
      {open && (
        <Box flex="1" minH="0">
          {open.missing ? (
            <ThreadNotFound onNew={() => startNew('push')} />
          ) : (
            <Suspense fallback={<ChatLoading />}>
              <Conversation
                key={open.key}
                api={api}
                session={session}
                threadId={open.id}
                initialMessages={open.messages}
                olderCursor={open.olderCursor}
                onTurnFinished={() => {
                  markSaved(session, open.id);
                  void threads.refresh();
                }}
                onCallFunction={onCallFunction}
              />
            </Suspense>
          )}
        </Box>
      )}
      {isDemo && <DemoNextSteps agentName={session.agent.name} onStartOver={() => startNew('push')} />}
    </ChatLayout>
  );
  return isDemo ? <DemoFrame>{chat}</DemoFrame> : chat;
}
