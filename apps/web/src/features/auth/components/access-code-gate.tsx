import type { ReactNode } from 'react';
import { AccessCodePage, hasPassedAccessCode } from './access-code-page';

/** The beta gate in front of sign-in (spec section 2): the access-code page until the flag is set. */
export function AccessCodeGate({ children }: { children: ReactNode }) {
  if (!hasPassedAccessCode()) return <AccessCodePage />;
  return <>{children}</>;
}
