import { createFileRoute } from '@tanstack/react-router';
import { AgentChatPage } from '../../../features/agents/components/agent-chat-page';
import { requireNumericId } from '../../../lib/route-params';

/** One agent's chat; each conversation has its own address, so reload, back/forward and bookmarks return to it. */
export const Route = createFileRoute('/_layout/agents/$Id/chat/{-$threadId}')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  staticData: { fullBleed: true },
  component: AgentChat,
});

function AgentChat() {
  const { Id, threadId } = Route.useParams();
  const navigate = Route.useNavigate();
  return (
    <AgentChatPage
      key={Id}
      agentId={Number(Id)}
      threadId={threadId}
      onThreadShown={(shown, history) =>
        void navigate({ params: { Id, threadId: shown }, replace: history === 'replace' })
      }
    />
  );
}
