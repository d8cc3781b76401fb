import { Box, Button, Code, Link, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * The ONLY renderer of model, tool and user text (test D4). Markdown without raw HTML (no
 * rehype-raw: HTML in the text is never turned into elements), links only to http(s) and mailto that
 * open in a new tab with the full address visible, and images that are never loaded (K3): each one
 * becomes a link the person can choose to open.
 */

const SAFE_LINK = /^(https?:|mailto:)/i;

/** The absolute http(s)/mailto URL, or undefined for every other scheme or a relative link. */
export function safeLinkUrl(href: string | undefined | null): string | undefined {
  if (!href) return undefined;
  const trimmed = href.trim();
  if (!SAFE_LINK.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:'
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

const hostOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.protocol === 'mailto:' ? parsed.pathname : parsed.host;
};

interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}
const textOf = (node: HastNode | undefined): string =>
  !node ? '' : node.type === 'text' ? (node.value ?? '') : (node.children ?? []).map(textOf).join('');

function CodeBlock({ code, children }: { code: string; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Box position="relative" my="2" borderWidth="1px" borderRadius="md" bg="bg.muted">
      <Button
        size="2xs"
        variant="ghost"
        position="absolute"
        top="1"
        right="1"
        onClick={copy}
        aria-label="Copy code"
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <Box as="pre" overflowX="auto" p="3" pr="16" fontSize="sm" fontFamily="mono" whiteSpace="pre">
        {children}
      </Box>
    </Box>
  );
}

const components: Components = {
  a: ({ href, children }) => {
    const url = safeLinkUrl(href);
    if (!url) {
      // Not a link we open: the text stays, the address is shown as plain text.
      return (
        <Text as="span">
          {children}
          {href ? ` (${href})` : null}
        </Text>
      );
    }
    return (
      <>
        <Link
          href={url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          title={url}
          color="brand.fg"
          textDecoration="underline"
          wordBreak="break-word"
        >
          {children}
        </Link>
        <Text as="span" fontSize="xs" color="fg.muted" ms="1">
          ({hostOf(url)})
        </Text>
      </>
    );
  },
  img: ({ src, alt }) => {
    const raw = typeof src === 'string' ? src : '';
    const url = safeLinkUrl(raw);
    const label = `[image: ${alt || 'no description'} — ${raw || 'no address'}]`;
    return url ? (
      <Link href={url} target="_blank" rel="noopener noreferrer nofollow" title={url} color="brand.fg">
        {label}
      </Link>
    ) : (
      <Text as="span" color="fg.muted">
        {label}
      </Text>
    );
  },
  pre: ({ node, children }) => <CodeBlock code={textOf(node as HastNode)}>{children}</CodeBlock>,
  code: ({ className, children }) =>
    className ? (
      <code className={className}>{children}</code>
    ) : (
      <Code fontSize="0.9em" px="1">
        {children}
      </Code>
    ),
  // A wide table scrolls sideways in its own box (focusable, so a keyboard can scroll it) rather
  // than break its words letter by letter on a narrow frame.
  table: ({ children }) => (
    <Box overflowX="auto" my="2" tabIndex={0} role="region" aria-label="Table">
      <Box as="table" fontSize="sm" borderCollapse="collapse" wordBreak="normal" overflowWrap="normal">
        {children}
      </Box>
    </Box>
  ),
};

/** Keeps every URL as written; the `a` and `img` renderers above decide what becomes a link. */
const keepUrl = (url: string) => url;

export function MessageMarkdown({ text }: { text: string }) {
  return (
    <Box
      className="cadre-markdown"
      lineHeight="1.6"
      wordBreak="break-word"
      css={{
        '& p': { my: '1.5' },
        '& ul, & ol': { ps: '5', my: '1.5' },
        '& ul': { listStyleType: 'disc' },
        '& ol': { listStyleType: 'decimal' },
        '& h1, & h2, & h3, & h4': { fontWeight: 'semibold', mt: '3', mb: '1' },
        '& h1': { fontSize: 'xl' },
        '& h2': { fontSize: 'lg' },
        '& blockquote': { borderStartWidth: '3px', ps: '3', color: 'fg.muted', my: '2' },
        '& th, & td': { borderWidth: '1px', px: '2', py: '1' },
        '& > :first-of-type': { mt: 0 },
      }}
    >
      <Markdown remarkPlugins={[remarkGfm]} components={components} urlTransform={keepUrl} skipHtml>
        {text}
      </Markdown>
    </Box>
  );
}

/** The name the messages use (./message-text); the copilot's one-file build renders with this directly. */
export const MessageText = MessageMarkdown;
