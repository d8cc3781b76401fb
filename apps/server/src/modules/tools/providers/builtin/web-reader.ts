import { z } from 'zod';
import { safeFetch } from '../../egress.ts';
import { codeForStatus, ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, type BuiltinService } from './define.ts';

/** Turns a web page into readable text through the egress guard (any public host, no private ones). */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) =>
  decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

/** HTML to plain text: drops scripts, styles and markup; keeps headings, paragraphs, list items and links. */
export function htmlToText(html: string, baseUrl?: string): { title: string; text: string } {
  const title = stripTags(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
  let body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|iframe|object|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<(script|style)\b[^>]*\/?>/gi, ' ');
  body = body.replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_m, level: string, inner: string) => {
    return `\n\n${'#'.repeat(Number(level))} ${stripTags(inner)}\n\n`;
  });
  body = body.replace(
    /<a\b[^>]*?href\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi,
    (...m) => {
      const href = decodeEntities(String(m[2] ?? m[3] ?? m[4] ?? ''));
      const text = stripTags(String(m[5]));
      let target = href;
      try {
        target = baseUrl ? new URL(href, baseUrl).toString() : href;
      } catch {
        // keep the raw href
      }
      if (!/^https?:/i.test(target)) return text;
      return text ? `${text} (${target})` : target;
    },
  );
  body = body
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<(br|hr)\b[^>]*>/gi, '\n')
    .replace(
      /<\/?(p|div|section|article|main|header|footer|nav|aside|ul|ol|table|tr|blockquote|pre|figure|h[1-6])\b[^>]*>/gi,
      '\n\n',
    )
    .replace(/<\/?(td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  const text = decodeEntities(body)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, text };
}

export const webReader: BuiltinService = {
  key: 'web_reader',
  name: 'Web Page Reader',
  description:
    'Reads a public web page and returns its title and readable text (headings, paragraphs, lists and links), without scripts, styles or markup. Private and internal addresses are refused.',
  logo: initialsLogo('W', '#2F855A'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'read_page',
      displayName: 'Read web page',
      description: 'Fetches an http(s) URL and returns its title and text, cut to max_chars characters.',
      effect: 'read',
      input: z.object({
        url: z.url({ protocol: /^https?$/ }).describe('The page to read, http:// or https://'),
        max_chars: z.number().int().min(500).max(100_000).default(20_000),
      }),
      run: async ({ url, max_chars }, ctx) => {
        const res = await safeFetch(
          url,
          {
            headers: {
              accept: 'text/html,application/xhtml+xml,text/plain;q=0.9',
              'user-agent': 'CadreReader/1.0',
            },
          },
          { allowPrivate: ctx.config.tools.egressAllowPrivate, maxBytes: 2 * 1024 * 1024, timeoutMs: 15_000 },
        );
        if (!res.ok) throw new ToolError(codeForStatus(res.status), `The page answered HTTP ${res.status}`);
        const type = res.headers['content-type'] ?? '';
        if (!/text\/|html|xml|json/i.test(type) && type !== '') {
          throw new ToolError('invalid_input', `The page is not text (${type.split(';')[0]})`);
        }
        const raw = res.text();
        const { title, text } =
          /html|xml/i.test(type) || /<html|<body|<p\b/i.test(raw)
            ? htmlToText(raw, res.url)
            : { title: '', text: raw.trim() };
        const truncated = text.length > max_chars;
        return { url: res.url, title, text: truncated ? `${text.slice(0, max_chars)}…` : text, truncated };
      },
    }),
  ],
};
