import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import { EXCHANGE_TEXT } from '../constants';

const DOCUMENT = {
  format: 'cadre.agent',
  format_version: 1,
  exported_at: '2026-11-22T10:00:00.000Z',
  agent: {
    name: 'Helper',
    description: 'Helps',
    guidelines: null,
    tools: [
      {
        provider: 'builtin',
        service_key: 'gmail',
        tool_name: 'GMAIL_SEND',
        service_name: 'Gmail',
        display_name: 'Send mail',
      },
      {
        provider: 'mcp',
        service_key: 'notes',
        tool_name: 'NOTES_ADD',
        service_name: 'Notes',
        display_name: 'Add note',
      },
    ],
  },
};

const file = (text: string) => new File([text], 'helper.agent.json', { type: 'application/json' });

afterEach(() => toaster.remove());

describe('importing an agent (/agents)', () => {
  it('sends the chosen file and lists the services to connect and the tools left out', async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([]),
      'POST /api/v1/agents/import': () =>
        json(
          {
            agent: { id: 9, name: 'Helper', description: 'Helps', guidelines: null, tools: [] },
            tools_to_connect: [{ ...DOCUMENT.agent.tools[0], service_id: 4 }],
            tools_not_found: [DOCUMENT.agent.tools[1]],
            files: [],
            model_not_offered: 'gpt-9',
          },
          201,
        ),
    });
    const { user } = renderApp('/agents');
    await user.upload(await screen.findByLabelText(EXCHANGE_TEXT.chooseFile), file(JSON.stringify(DOCUMENT)));
    const dialog = await screen.findByRole('dialog', { name: 'Imported Helper' });
    expect(api.sent('POST /api/v1/agents/import').map((r) => r.body)).toEqual([DOCUMENT]);
    expect(api.sent('POST /api/v1/agents/import')[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(
      within(within(dialog).getByRole('list', { name: 'Tools to connect' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Send mail (Gmail)']);
    expect(
      within(within(dialog).getByRole('list', { name: 'Tools not found' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Add note (Notes)']);
    // The document's model is not offered here: the agent answers with the default, and says so.
    expect(within(dialog).getByTestId('model-not-offered')).toHaveTextContent(
      "The model 'gpt-9' is not offered here: the agent answers with the default model.",
    );
    expect(within(dialog).queryByText('Every tool was found and its service is connected.')).toBeNull();
    expect(within(dialog).getByRole('link', { name: 'Go to Services' })).toHaveAttribute('href', '/services');
    expect(within(dialog).getByRole('link', { name: 'Open agent' })).toHaveAttribute(
      'href',
      '/agents/9/edit',
    );
  });

  it('sends a .zip export as it is, typed as a zip, and says how many files came with it', async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([]),
      'POST /api/v1/agents/import': () =>
        json(
          {
            agent: { id: 9, name: 'Helper', description: 'Helps', guidelines: null, tools: [] },
            tools_to_connect: [],
            tools_not_found: [],
            files: [
              { id: 'f1', name: 'handbook.md' },
              { id: 'f2', name: 'refunds.pdf' },
            ],
          },
          201,
        ),
    });
    const { user } = renderApp('/agents');
    await user.upload(
      await screen.findByLabelText(EXCHANGE_TEXT.chooseFile),
      new File(['PK\u0003\u0004 not json'], 'helper.agent.zip', { type: 'application/zip' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Imported Helper' });
    const [sent] = api.sent('POST /api/v1/agents/import');
    // Not read as JSON first (it is not): sent with the zip's type (jsdom's fetch drops a File's bytes).
    expect(sent!.headers['content-type']).toBe('application/zip');
    expect(sent!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(
      within(dialog).getByText('2 knowledge files came with it, indexed for search.'),
    ).toBeInTheDocument();
  });

  it('names the field the server refused, and sends nothing for a file that is not JSON', async () => {
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([]),
      'POST /api/v1/agents/import': () =>
        json(
          {
            detail: [
              {
                loc: ['body', 'format_version'],
                msg: 'is newer than this server reads (1); update Cadre to import this document',
                type: 'too_big',
              },
            ],
            code: 'validation_failed',
          },
          422,
        ),
    });
    const { user } = renderApp('/agents');
    const input = await screen.findByLabelText(EXCHANGE_TEXT.chooseFile);
    await user.upload(input, file('not json'));
    expect(await findToast('Import failed')).toMatchObject({
      description: 'The file is not an exported agent (not JSON).',
      type: 'error',
    });
    expect(api.sent('POST /api/v1/agents/import')).toEqual([]);
    toaster.remove();
    await user.upload(input, file(JSON.stringify({ ...DOCUMENT, format_version: 2 })));
    expect(await findToast('Import failed')).toMatchObject({
      description: 'format_version is newer than this server reads (1); update Cadre to import this document',
    });
  });
});
