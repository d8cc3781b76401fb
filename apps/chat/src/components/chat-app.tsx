import { Badge, Box, Button, Flex, HStack, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import {
  DEMOS,
  demoStartPath,
  type CadreUIMessage,
  type ChatSessionInfo,
  type ChatThread,
} from '@cadre/contract';
import { AgentAvatar } from '@cadre/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CHAT_PAGE_SIZE, ChatHttpError, createChatApi, toUiMessages } from '../lib/api';
import type { ChatEndpoint } from '../lib/endpoint';
import { Conversation, OFFLINE_LABEL, type HostFunctionCall } from './conversation';
import { DemoNextSteps } from './demo-next-steps';
import { ThreadList } from './thread-list';

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
  onThreadChange?: (threadId: string | null, history: 'push' | 'replace') => void;
  /** A public demo (the frame at /demos): the visitor has no agents list, so the way on is shown. */
  demo?: boolean;
}

type SessionState =
  | { kind: 'loading' }
  | { kind: 'ready'; session: ChatSessionInfo }
  | { kind: 'ended' }
  | { kind: 'failed'; message: string };

interface OpenThread {
  id: string;
  messages: CadreUIMessage[];
  /** Bumped to remount the conversation (a new chat or another thread). */
  key: number;
  /** False for a new chat until its first turn is stored. */
  saved: boolean;
  /** The thread asked for is gone or not this person's: the not-found state shows instead. */
  missing?: boolean;
  /** The cursor of the messages before those loaded; null when the thread's start is loaded. */
  olderCursor: string | null;
}

/** The threads listed past the pages loaded: the next page's cursor, and how loading it went. */
interface MoreThreads {
  cursor: string | null;
  loading: boolean;
  failed: boolean;
}

/** Most threads one refresh reloads (the contract's page maximum). */
const MAX_THREADS_RELOADED = 1000;

const storageKey = (variant: string, agentId: number) => `cadre-chat:${variant}:last-thread:${agentId}`;

/** A demo's way back (to Cadre) and next step (an agent of one's own), above the chat. */
function DemoBar() {
  return (
    <Flex
      as="nav"
      aria-label="Demo"
      px="3"
      py="1.5"
      columnGap="4"
      rowGap="1"
      wrap="wrap"
      align="center"
      justify="space-between"
      fontSize="sm"
      bg="brand.subtle"
      borderBottomWidth="1px"
    >
      <Link href="/" color="brand.fg">
        ← Back to Cadre
      </Link>
      {/* On a phone the two links need the row; the sample data is evident from the chat. */}
      <Text color="fg.muted" flex="1" minW="0" display={{ base: 'none', sm: 'block' }}>
        You are trying a demo with sample data.
      </Text>
      <Link href="/agents/create" color="brand.fg" fontWeight="semibold">
        Build your own agent →
      </Link>
    </Flex>
  );
}

/** A thread id that is not the person's (or no longer exists): never anyone else's data. */
function ThreadNotFound({ onNew }: { onNew: () => void }) {
  return (
    <Flex h="full" align="center" justify="center" p="6" data-testid="thread-not-found">
      <Stack textAlign="center" gap="3" maxW="sm" role="status">
        <Text fontWeight="semibold">Conversation not found</Text>
        <Text color="fg.muted" fontSize="sm">
          It may have been deleted, or it belongs to another agent or person.
        </Text>
        <Button size="sm" alignSelf="center" onClick={onNew}>
          Start a new chat
        </Button>
      </Stack>
    </Flex>
  );
}

/** A demo session that ended: start a demo again, or go to Cadre. */
function DemoEnded() {
  return (
    <Flex h="full" align="center" justify="center" p="6" data-testid="session-ended">
      <Stack textAlign="center" gap="3" maxW="sm">
        <Text fontWeight="semibold">Your demo session has ended</Text>
        <Text color="fg.muted" fontSize="sm">
          Demo sessions end after a while without use, and their sample data is deleted. Start a demo again:
        </Text>
        <Stack as="nav" aria-label="Demos" gap="2">
          {DEMOS.map((item) => (
            <Button key={item.name} asChild size="sm" variant="outline">
              <a href={demoStartPath(item.name)}>Try the {item.title} demo</a>
            </Button>
          ))}
        </Stack>
        <Link href="/" color="brand.fg" alignSelf="center" fontSize="sm">
          Sign up to build your own agent
        </Link>
        <Link href="/" color="brand.fg" alignSelf="center" fontSize="sm">
          ← Back to Cadre
        </Link>
      </Stack>
    </Flex>
  );
}

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
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  const [threads, setThreads] = useState<ChatThread[]>([]);
  const [moreThreads, setMoreThreads] = useState<MoreThreads>({
    cursor: null,
    loading: false,
    failed: false,
  });
  const [open, setOpen] = useState<OpenThread | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [listProblem, setListProblem] = useState<string | null>(null);

  const handleFailure = useCallback((e: unknown) => {
    if (e instanceof ChatHttpError && e.code === 'unauthorized') setState({ kind: 'ended' });
    else setListProblem(e instanceof Error ? e.message : 'The chat service could not be reached.');
  }, []);

  const remember = useCallback(
    (session: ChatSessionInfo, threadId: string) => {
      try {
        storage?.setItem(storageKey(variant, session.agent.id), threadId);
      } catch {
        // storage may be unavailable (private mode); the thread list still works
      }
    },
    [storage, variant],
  );

  const startNew = useCallback(
    (history: 'push' | 'replace') => {
      const id = crypto.randomUUID();
      setOpen((prev) => ({ id, messages: [], key: (prev?.key ?? 0) + 1, saved: false, olderCursor: null }));
      onThreadChange?.(null, history);
      setDrawer(false);
    },
    [onThreadChange],
  );

  const openThread = useCallback(
    async (
      session: ChatSessionInfo,
      id: string,
      history: 'push' | 'replace',
      /** 'new': a missing thread opens a new chat instead (the remembered one may be gone). */
      ifMissing: 'show' | 'new' = 'show',
    ) => {
      try {
        // The newest messages: the conversation loads earlier ones as the person scrolls up.
        const loaded = await api.messages(id, { limit: CHAT_PAGE_SIZE });
        const messages = toUiMessages(loaded.messages);
        const olderCursor = loaded.nextCursor ?? null;
        setOpen((prev) => ({ id, messages, key: (prev?.key ?? 0) + 1, saved: true, olderCursor }));
        remember(session, id);
        onThreadChange?.(id, history);
        setDrawer(false);
      } catch (e) {
        if (e instanceof ChatHttpError && e.code === 'not_found' && ifMissing === 'new') startNew('replace');
        else if (e instanceof ChatHttpError && e.code === 'not_found') {
          setOpen((prev) => ({
            id,
            messages: [],
            key: (prev?.key ?? 0) + 1,
            saved: true,
            missing: true,
            olderCursor: null,
          }));
        } else handleFailure(e);
      }
    },
    [api, remember, onThreadChange, handleFailure, startNew],
  );

  /** A new chat's first turn is stored: from now on it has an address of its own. */
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  });
  const markSaved = useCallback(
    (session: ChatSessionInfo, id: string) => {
      const current = openRef.current;
      if (!current || current.id !== id || current.saved) return;
      const saved = { ...current, saved: true };
      openRef.current = saved;
      setOpen(saved);
      remember(session, id);
      onThreadChange?.(id, 'replace');
    },
    [remember, onThreadChange],
  );

  // A refresh (a turn ended, a rename, a delete) reloads as many threads as are listed, so the
  // older pages the person scrolled to stay listed.
  const listedRef = useRef(0);
  useEffect(() => {
    listedRef.current = threads.length;
  });
  const refreshThreads = useCallback(async () => {
    try {
      const limit = Math.min(MAX_THREADS_RELOADED, Math.max(CHAT_PAGE_SIZE, listedRef.current));
      const { threads: list, nextCursor } = await api.listThreads({ limit });
      setThreads(list);
      setMoreThreads({ cursor: nextCursor, loading: false, failed: false });
      setListProblem(null);
    } catch (e) {
      handleFailure(e);
    }
  }, [api, handleFailure]);

  const loadMoreThreads = useCallback(async () => {
    const { cursor, loading } = moreThreads;
    if (cursor === null || loading) return;
    setMoreThreads({ cursor, loading: true, failed: false });
    try {
      const page = await api.listThreads({ limit: CHAT_PAGE_SIZE, cursor });
      setThreads((listed) => {
        const known = new Set(listed.map((t) => t.id));
        return [...listed, ...page.threads.filter((t) => !known.has(t.id))];
      });
      setMoreThreads({ cursor: page.nextCursor, loading: false, failed: false });
    } catch (e) {
      if (e instanceof ChatHttpError && e.code === 'unauthorized') setState({ kind: 'ended' });
      setMoreThreads({ cursor, loading: false, failed: true });
    }
  }, [api, moreThreads]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const session = await api.session();
        if (cancelled) return;
        setState({ kind: 'ready', session });
        const { threads: list, nextCursor } = await api.listThreads({ limit: CHAT_PAGE_SIZE });
        if (cancelled) return;
        setThreads(list);
        setMoreThreads({ cursor: nextCursor, loading: false, failed: false });
        if (initialThreadId) return await openThread(session, initialThreadId, 'replace');
        let last: string | null = null;
        try {
          last =
            initialThreadId === null
              ? null
              : (storage?.getItem(storageKey(variant, session.agent.id)) ?? null);
        } catch {
          last = null;
        }
        // The thread last open may be older than the first page: asked for, it opens or is gone.
        if (last) await openThread(session, last, 'replace', 'new');
        else startNew('replace');
      } catch (e) {
        if (cancelled) return;
        if (e instanceof ChatHttpError && e.code === 'unauthorized') setState({ kind: 'ended' });
        else setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Unknown error' });
      }
    })();
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load once per endpoint
  }, [api]);

  if (state.kind === 'loading') {
    return (
      <Flex h="full" align="center" justify="center">
        <Spinner aria-label="Loading" />
      </Flex>
    );
  }
  // The demo frame says so; a frame at /demos is a demo in any case.
  const isDemo = demo || endpoint.baseUrl.endsWith('/demos');
  if (state.kind === 'ended') {
    if (isDemo) return <DemoEnded />;
    return (
      <Flex h="full" align="center" justify="center" p="6" data-testid="session-ended">
        <Stack textAlign="center" gap="2">
          <Text fontWeight="semibold">Your chat session has ended — reopen the agent</Text>
          <Text color="fg.muted" fontSize="sm">
            Open the agent again from your agents list to continue.
          </Text>
        </Stack>
      </Flex>
    );
  }
  if (state.kind === 'failed') {
    return (
      <Flex h="full" align="center" justify="center" p="6">
        <Stack textAlign="center" gap="3" role="alert">
          <Text fontWeight="semibold">The chat could not load</Text>
          <Text color="fg.muted" fontSize="sm">
            {state.message}
          </Text>
          <Button size="sm" onClick={() => window.location.reload()}>
            Retry
          </Button>
        </Stack>
      </Flex>
    );
  }

  const { session } = state;
  const list = (
    <ThreadList
      threads={threads}
      currentId={open?.id ?? ''}
      onNew={() => startNew('push')}
      onSelect={(id) => void openThread(session, id, 'push')}
      onRename={(id, name) => void api.renameThread(id, name).then(refreshThreads, handleFailure)}
      onDelete={(id) =>
        void api.deleteThread(id).then(async () => {
          await refreshThreads();
          if (id === open?.id) startNew('replace');
        }, handleFailure)
      }
      onSearch={api.searchThreads}
      more={{ ...moreThreads, onLoad: () => void loadMoreThreads() }}
    />
  );
  const drawerOnly = variant === 'copilot';

  const chat = (
    <Flex h="full" minH="0" position="relative" bg="bg" color="fg">
      {!drawerOnly && (
        <Box
          w="64"
          flexShrink={0}
          borderEndWidth="1px"
          display={{ base: 'none', md: 'block' }}
          bg="bg.subtle"
          data-testid="thread-panel"
        >
          {list}
        </Box>
      )}
      {drawer && (
        <>
          <Box
            position="absolute"
            inset="0"
            bg="blackAlpha.500"
            zIndex="overlay"
            onClick={() => setDrawer(false)}
            aria-hidden
          />
          <Box
            position="absolute"
            top="0"
            bottom="0"
            left="0"
            w="72"
            maxW="85%"
            bg="bg.panel"
            zIndex="modal"
            borderEndWidth="1px"
            role="dialog"
            aria-label="Conversations"
            data-testid="thread-drawer"
          >
            {list}
          </Box>
        </>
      )}
      <Flex direction="column" flex="1" minW="0" minH="0">
        <HStack px="3" py="2" borderBottomWidth="1px" gap="2" minH="12">
          <Button
            size="sm"
            variant="ghost"
            display={drawerOnly ? 'inline-flex' : { base: 'inline-flex', md: 'none' }}
            onClick={() => setDrawer(true)}
            aria-label="Show conversations"
          >
            ☰
          </Button>
          <AgentAvatar agent={session.agent} size="sm" />
          <Text fontWeight="semibold" truncate flex="1" minW="0">
            {session.agent.name}
          </Text>
          {/* Short here; the empty chat says the whole sentence, and the badge's title does. */}
          {session.model.offline && (
            <Badge
              colorPalette="orange"
              flexShrink={0}
              data-testid="offline-label"
              title={OFFLINE_LABEL(session)}
            >
              Offline model
            </Badge>
          )}
          {!session.model.offline && !session.model.configured && (
            <Badge colorPalette="red">No model configured</Badge>
          )}
        </HStack>
        {listProblem && (
          <Text role="alert" color="fg.error" fontSize="sm" px="3" py="1">
            {listProblem}
          </Text>
        )}
        {open && (
          <Box flex="1" minH="0">
            {open.missing ? (
              <ThreadNotFound onNew={() => startNew('push')} />
            ) : (
              <Conversation
                key={open.key}
                api={api}
                session={session}
                threadId={open.id}
                initialMessages={open.messages}
                olderCursor={open.olderCursor}
                onTurnFinished={() => {
                  markSaved(session, open.id);
                  void refreshThreads();
                }}
                onCallFunction={onCallFunction}
              />
            )}
          </Box>
        )}
        {isDemo && <DemoNextSteps agentName={session.agent.name} onStartOver={() => startNew('push')} />}
      </Flex>
    </Flex>
  );
  if (!isDemo) return chat;
  return (
    <Flex direction="column" h="full" minH="0">
      <DemoBar />
      <Box flex="1" minH="0">
        {chat}
      </Box>
    </Flex>
  );
}
