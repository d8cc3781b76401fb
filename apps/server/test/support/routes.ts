import type { FastifyInstance } from 'fastify';

/**
 * Every route of a built app as `METHOD /url`, read from `printRoutes` (Fastify keeps no other list
 * once the routes are registered). Each line of the tree is a path segment under its parent, with
 * the methods in parentheses when a route ends there.
 */
export function appRoutes(app: FastifyInstance): string[] {
  const segments: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    segments.length = match[1]!.length / 4;
    segments.push(match[2]!);
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${segments.join('')}`);
  }
  return routes;
}
