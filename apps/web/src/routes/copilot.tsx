import { createFileRoute } from '@tanstack/react-router';
import { CopilotPage } from '../features/copilot/components/copilot-page';

/** Outside the protected shell (spec section 2); the page itself asks for sign-in when needed. */
export const Route = createFileRoute('/copilot')({
  component: CopilotPage,
});
