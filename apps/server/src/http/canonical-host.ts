import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';

/** The server modules' paths: the API, chat, demos and identity provider answer on any host. */
const MODULE_PREFIXES = ['/backend', '/chainlit', '/demos', '/idp'];

/** `host[:port]` without the port, lower-cased, IPv6 without brackets. */
export function hostName(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(1, lower.indexOf(']'));
  return lower.split(':')[0] ?? lower;
}

function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return ipaddr.isValid(name) && ipaddr.process(name).range() === 'loopback';
}

/** The names this machine answers to: loopback, its host name and every interface address. */
export function isThisMachine(name: string): boolean {
  if (isLoopbackName(name)) return true;
  const hostname = os.hostname().toLowerCase();
  if (name === hostname || name.split('.')[0] === hostname) return true;
  return Object.values(os.networkInterfaces())
    .flat()
    .some((iface) => iface?.address.toLowerCase() === name);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Readable at any width and in the browser's dark scheme; a long address wraps instead of scrolling. */
const GUIDANCE_STYLE =
  'body{margin:0;font-family:system-ui,sans-serif;line-height:1.5;background:#fff;color:#18181b}' +
  'main{max-width:36rem;margin:12vh auto;padding:0 1.25rem}' +
  'h1{font-size:1.5rem;line-height:1.3}h1,p{overflow-wrap:anywhere}a{color:#0f766e}' +
  '@media (prefers-color-scheme:dark){body{background:#18181b;color:#f4f4f5}a{color:#5eead4}}';

function guidancePage(publicUrl: string, host: string, localOnly: boolean): string {
  const url = escapeHtml(publicUrl);
  const why = localOnly
    ? `<p>Cadre is set up to be opened on the computer it runs on only, at <a href="${url}">${url}</a>. To open it from other devices, start it with <code>PUBLIC_URL</code> set to an address they can reach, such as <code>http://${escapeHtml(host)}</code>.</p>`
    : `<p>Sign-in works only at the address Cadre is configured with. Open <a href="${url}">${url}</a> instead.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Open Cadre at ${url}</title><style>${GUIDANCE_STYLE}</style></head><body><main><h1>Open Cadre at ${url}</h1>${why}<p>An administrator can change the address with the <code>PUBLIC_URL</code> setting (docs/configuration.md).</p></main></body></html>`;
}

/** A browser opening one of the web app's pages. */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!(request.headers.accept ?? '').includes('text/html')) return false;
  const path = request.url.split('?')[0] ?? '/';
  return !MODULE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Sign-in is bound to PUBLIC_URL: the identity provider sends the browser back there, and the
 * sign-in state kept in the browser belongs to one origin. A page opened on any other host would
 * fail after sign-in, so it is sent to PUBLIC_URL before sign-in starts: by a redirect when the host
 * is another name of this machine and PUBLIC_URL can be reached from where the request came, and
 * otherwise with a page that names the address to use. API, chat and identity requests are left
 * alone (health checks and scripts call the API on any host name).
 */
export function registerCanonicalHost(app: FastifyInstance, config: Config) {
  if (config.auth.disabled) return;
  const publicUrl = new URL(config.publicUrl);
  const publicHost = publicUrl.host.toLowerCase();
  const publicIsLocal = isLoopbackName(hostName(publicHost));

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isPageRequest(request)) return;
    const host = request.host.toLowerCase();
    if (host === publicHost) return;
    const clientIsLocal = ipaddr.isValid(request.ip) && ipaddr.process(request.ip).range() === 'loopback';
    const reachable = !publicIsLocal || clientIsLocal;
    if (reachable && isThisMachine(hostName(host))) {
      return reply.header('cache-control', 'no-store').redirect(`${config.publicUrl}${request.url}`, 307);
    }
    return reply
      .code(421)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(guidancePage(config.publicUrl, host, publicIsLocal && !clientIsLocal));
  });
}
