import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatEndpoint } from '../lib/endpoint';
import { renderUi } from '../test/render';
import { ToolStep, type ToolCallPart } from './tool-step';

const endpoint: ChatEndpoint = {
  baseUrl: '/chainlit',
  servicesUrl: 'https://app.example/services',
  linkTarget: '_top',
};

const part = (over: Partial<ToolCallPart>): ToolCallPart => ({
  type: 'dynamic-tool',
  toolCallId: 'call-1',
  toolName: 'calculator_add',
  title: 'Add',
  state: 'output-available',
  input: { a: 2, b: 3 },
  output: { sum: 5 },
  toolMetadata: { effect: 'read', durationMs: 42 },
  ...over,
});

describe('ToolStep', () => {
  it('shows the tool, its status and duration, and expands to the arguments and result', () => {
    renderUi(<ToolStep part={part({})} endpoint={endpoint} />);
    expect(screen.getByText('Add (calculator_add)')).toBeInTheDocument();
    expect(screen.getByText('Done')).toBeInTheDocument();
    expect(screen.getByText('42 ms')).toBeInTheDocument();
    expect(screen.queryByText('Arguments')).toBeNull();
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByText('Arguments')).toBeInTheDocument();
    expect(screen.getByText(/"a": 2/)).toBeInTheDocument();
    expect(screen.getByText(/"sum": 5/)).toBeInTheDocument();
  });

  it('shows a tool error, with a reconnect link to the parent app when the connection expired', () => {
    renderUi(
      <ToolStep
        part={part({
          state: 'output-error',
          output: undefined,
          errorText: 'The Gmail connection has expired.',
        })}
        endpoint={endpoint}
      />,
    );
    expect(screen.getByText('Failed')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(screen.getByRole('alert')).toHaveTextContent('The Gmail connection has expired.');
    const link = screen.getByRole('link', { name: 'Reconnect the service' });
    expect(link).toHaveAttribute('href', 'https://app.example/services');
    expect(link).toHaveAttribute('target', '_top');
  });

  it('shows the full arguments of a pending write and decides with the approval and call ids', () => {
    const onDecide = vi.fn();
    const input = {
      title: 'Quarterly review',
      body: 'A'.repeat(500),
      attendees: ['a@x.example', 'b@x.example'],
    };
    renderUi(
      <ToolStep
        part={part({
          state: 'approval-requested',
          output: undefined,
          input,
          approval: { id: 'ap-7' },
          toolMetadata: { effect: 'write' },
          toolCallId: 'call-9',
        })}
        endpoint={endpoint}
        onDecide={onDecide}
      />,
    );
    expect(screen.getByText('Needs approval')).toBeInTheDocument();
    const shown = screen.getAllByText(/Quarterly review/)[0]!.textContent!;
    expect(JSON.parse(shown)).toEqual(input);
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onDecide).toHaveBeenLastCalledWith('ap-7', 'approve', 'call-9');
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(onDecide).toHaveBeenLastCalledWith('ap-7', 'deny', 'call-9');
  });

  it('disables the decision while another request runs', () => {
    renderUi(
      <ToolStep part={part({ state: 'approval-requested', approval: { id: 'ap-1' } })} endpoint={endpoint} />,
    );
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDisabled();
  });
});
