import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { CustomMcpDialog } from './custom-mcp-dialog';

afterEach(() => vi.restoreAllMocks());

/** Pastes instead of typing key by key: the same events the form reads, without the slow typing. */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

function setup() {
  const onClose = vi.fn();
  const toast = vi.spyOn(toaster, 'create');
  renderWithProviders(<CustomMcpDialog open onClose={onClose} />);
  return { onClose, toast, user: userEvent.setup() };
}

describe('Add your own MCP server dialog', () => {
  it('sends the trimmed name and URL with the optional header, then closes with a toast', async () => {
    const api = installFakeApi({
      'POST /api/v1/services/custom_mcp': () =>
        json(
          {
            id: 9,
            name: 'Mine',
            description: 'Your MCP server',
            logo: null,
            status: 'ACTIVE',
            auth_schemes: ['NO_AUTH'],
          },
          201,
        ),
    });
    const { onClose, toast, user } = setup();
    await fill(user, await screen.findByLabelText(/^Name/), '  Mine ');
    await fill(user, screen.getByLabelText(/Server URL/), 'https://mcp.example.com/mcp');
    await fill(user, screen.getByLabelText(/Header name/), 'X-Api-Key');
    await fill(user, screen.getByLabelText(/Header value/), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Add Server' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent('POST /api/v1/services/custom_mcp')[0]!.headers['idempotency-key']).toMatch(
      /^[0-9a-f]{32}$/,
    );
    expect(api.sent('POST /api/v1/services/custom_mcp').map((r) => r.body)).toEqual([
      {
        name: 'Mine',
        url: 'https://mcp.example.com/mcp',
        header_name: 'X-Api-Key',
        header_value: 'secret-1',
      },
    ]);
    expect(toast).toHaveBeenCalledWith({
      title: 'MCP Server Added',
      description: '"Mine" is now an active service.',
      type: 'success',
      duration: 5000,
    });
  });

  it('shows each of the API’s issues under the field it names, focuses the first, and stays open', async () => {
    const api = installFakeApi({
      'POST /api/v1/services/custom_mcp': () =>
        json(
          {
            detail: [
              { loc: ['body', 'header_value'], msg: 'The MCP server refused these credentials (401)' },
              { loc: ['body', 'url'], msg: 'Private addresses are not allowed', type: 'value_error' },
              { loc: ['body', 'transport'], msg: 'Refused: MCP servers are added by URL only' },
            ],
            code: 'validation_failed',
          },
          422,
        ),
    });
    const { onClose, user } = setup();
    await fill(user, await screen.findByLabelText(/^Name/), 'Mine');
    const url = screen.getByLabelText(/Server URL/);
    await fill(user, url, 'https://10.0.0.1/mcp');
    await fill(user, screen.getByLabelText(/Header name/), 'X-Api-Key');
    const headerValue = screen.getByLabelText(/Header value/);
    await fill(user, headerValue, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Add Server' }));

    await waitFor(() => expect(url).toHaveAccessibleErrorMessage('Private addresses are not allowed'));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(headerValue).toHaveAccessibleErrorMessage('The MCP server refused these credentials (401)');
    expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('aria-invalid');
    // The first wrong field in the form's order, not the first issue in the answer.
    await waitFor(() => expect(url).toHaveFocus());
    // An issue about no field of the form is said on its own, with the name the API gave it.
    expect(screen.getByRole('alert')).toHaveTextContent(
      'transport: Refused: MCP servers are added by URL only',
    );
    expect(screen.queryByText(/^url:/)).not.toBeInTheDocument();
    expect(api.sent('POST /api/v1/services/custom_mcp')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();

    // Editing a field clears its message; the other stays until the next answer.
    await fill(user, url, '/x');
    expect(url).not.toHaveAttribute('aria-invalid');
    expect(headerValue).toHaveAttribute('aria-invalid', 'true');
  });
});
