import { fireEvent, screen } from '@testing-library/react';
import type { CadreUIMessage } from '@cadre/contract';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../test/render';
import { Citations } from './citations';

const passage = (n: number, over: object = {}) => ({
  n,
  file_id: `file-${n}`,
  file_name: `doc-${n}.md`,
  passage: n + 2,
  page: null,
  text: `Passage text number ${n}.`,
  ...over,
});

const answer = (parts: object[]) => ({ id: 'm1', role: 'assistant', parts }) as unknown as CadreUIMessage;

describe('Citations', () => {
  it('lists the passages Search knowledge found and opens one on click', () => {
    renderUi(
      <Citations
        message={answer([
          {
            type: 'dynamic-tool',
            toolName: 'search_knowledge',
            toolCallId: 'c1',
            state: 'output-available',
            input: { query: 'x' },
            output: { query: 'x', passages: [passage(1), passage(2, { page: 4, file_name: 'policy.pdf' })] },
          },
          { type: 'text', text: 'According to your files … [1]' },
        ])}
      />,
    );
    const buttons = screen.getAllByTestId('citation');
    expect(buttons.map((b) => b.textContent)).toEqual([
      '[1] doc-1.md, passage 3',
      '[2] policy.pdf, page 4, passage 4',
    ]);
    expect(screen.queryByTestId('citation-passage')).toBeNull();
    fireEvent.click(buttons[1]!);
    expect(screen.getByTestId('citation-passage')).toHaveTextContent('Passage text number 2.');
    expect(buttons[1]).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(buttons[1]!);
    expect(screen.queryByTestId('citation-passage')).toBeNull();
  });

  it('shows nothing for answers without a finished knowledge search, or with an unreadable output', () => {
    const { container } = renderUi(
      <Citations
        message={answer([
          { type: 'dynamic-tool', toolName: 'search_knowledge', toolCallId: 'c1', state: 'input-available' },
          {
            type: 'dynamic-tool',
            toolName: 'search_knowledge',
            toolCallId: 'c2',
            state: 'output-available',
            output: { bad: 1 },
          },
          {
            type: 'dynamic-tool',
            toolName: 'web_search',
            toolCallId: 'c3',
            state: 'output-available',
            output: { query: 'x', passages: [passage(1)] },
          },
        ])}
      />,
    );
    expect(container.querySelector('[data-testid="citations"]')).toBeNull();
  });
});
