import { createFileRoute } from '@tanstack/react-router';
import { AgentChatPage } from '../../../features/agents/components/agent-chat-page';
import { requireNumericId } from '../../../lib/route-params';

export const Route = createFileRoute('/_layout/agents/$Id/chat')({
  beforeLoad: ({ params }) => requireNumericId(params.Id),
  staticData: { fullBleed: true },
  component: AgentChat,
});

function AgentChat() {
  const { Id } = Route.useParams();
  return <AgentChatPage key={Id} agentId={Number(Id)} />;
}
