import { notFound } from '@tanstack/react-router';

/** Ids in paths are positive integers; anything else is an unknown page. */
export function requireNumericId(id: string) {
  if (!/^[1-9]\d{0,15}$/.test(id)) throw notFound();
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page fills the shell's content area edge to edge (the chat frame). */
    fullBleed?: boolean;
  }
}
