import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { installFakeApi, json } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { Agent, AgentVersion } from '../api/agents-api';
import type { KnowledgeFile } from '../api/knowledge-api';
import { agentFixture } from '../../../test/agent-fixture';
import { captureDownloads } from '../../../test/downloads';
import { RESTORE_WARNING_DURATION } from '../constants';

const tool = (id: number, display_name: string) => ({
  id,
  display_name,
  name: `CALCULATOR_${display_name.toUpperCase()}`,
  description: `${display_name} two numbers`,
  logo: null,
  app_name: 'Calculator',
  service_id: 1,
  needs_reconnecting: false,
});
const snapshotTool = (id: number, display_name: string) => ({
  id,
  name: `CALCULATOR_${display_name.toUpperCase()}`,
  display_name,
  app_name: 'Calculator',
  provider: 'builtin',
  service_key: 'calculator',
});

const FIRST: AgentVersion = {
  number: 1,
  reason: 'create',
  restored_from: null,
  saved_by: 4,
  author: 'Alice',
  created_at: '2026-11-20T10:00:00.000Z',
  snapshot: {
    name: 'Bookkeeper',
    description: 'Does sums',
    guidelines: null,
    icon: null,
    color: null,
    starters: [],
    model_id: null,
    temperature: null,
    tools: [snapshotTool(12, 'Add')],
    files: [],
  },
};
const SECOND: AgentVersion = {
  number: 2,
  reason: 'update',
  restored_from: null,
  saved_by: 4,
  author: null,
  created_at: '2026-11-21T10:00:00.000Z',
  snapshot: {
    name: 'Accountant',
    description: 'Does sums',
    guidelines: 'Be exact',
    icon: null,
    color: null,
    starters: [],
    model_id: null,
    temperature: null,
    tools: [snapshotTool(13, 'Divide')],
    files: [],
  },
};
const CURRENT: Agent = agentFixture({
  id: 1,
  name: 'Accountant',
  description: 'Does sums',
  guidelines: 'Be exact',
  tools: [tool(13, 'Divide')],
});

/** The zip export's first bytes (a local file header): enough for the browser to save. */
const ZIP_BYTES = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);

/** What a restore left out, as the server answers it (nothing, unless a test says otherwise). */
const NOTHING_LEFT_OUT = { files_not_restored: [], tools_not_restored: [], model_not_restored: null };

function fakeApi(files: KnowledgeFile[] = [], leftOut: object = NOTHING_LEFT_OUT) {
  let agent = CURRENT;
  let versions = [SECOND, FIRST];
  return installFakeApi({
    'GET /api/v1/agents/': () => json([agent]),
    'GET /api/v1/agents/:agent_id/files': () => json(files),
    'GET /api/v1/agents/:agent_id/agent': () => json(agent),
    'GET /api/v1/agents/:agent_id/versions': () => json(versions),
    'GET /api/v1/services/active': () => json([]),
    'POST /api/v1/agents/:agent_id/versions/:number/restore': ({ params }) => {
      expect(params).toEqual({ agent_id: '1', number: '1' });
      agent = { ...agent, name: 'Bookkeeper', guidelines: null, starters: [], tools: [tool(12, 'Add')] };
      versions = [
        { ...FIRST, number: 3, reason: 'restore', restored_from: 1, created_at: '2026-11-22T10:00:00.000Z' },
        ...versions,
      ];
      return json({ ...agent, ...leftOut });
    },
    'GET /api/v1/agents/:agent_id/export': ({ path }) =>
      path.endsWith('?include=files')
        ? new Response(ZIP_BYTES, { headers: { 'content-type': 'application/zip' } })
        : json({
            format: 'cadre.agent',
            format_version: 1,
            exported_at: '2026-11-22T10:00:00.000Z',
            agent: {
              name: 'Accountant',
              description: 'Does sums',
              guidelines: 'Be exact',
              starters: [],
              tools: [],
            },
          }),
  });
}

afterEach(() => {
  toaster.remove();
  vi.unstubAllGlobals();
});

describe('the agent editor’s history (/agents/:id/edit)', () => {
  it('lists the versions newest first and compares the newest with the one before, field by field', async () => {
    fakeApi();
    renderApp('/agents/1/edit?section=history');
    const list = await screen.findByRole('list', { name: 'Saved versions' });
    const items = within(list).getAllByTestId('agent-version');
    expect(items.map((item) => within(item).getByText(/^Version/).textContent)).toEqual([
      'Version 2',
      'Version 1',
    ]);
    expect(within(items[0]!).getByText('Current')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Created')).toBeInTheDocument();
    expect(within(items[1]!).getByText(/^Alice, /)).toBeInTheDocument();
    // No name from the sign-in: the owner's own save.
    expect(within(items[0]!).getByText(/^You, /)).toBeInTheDocument();

    const diff = screen.getByRole('table', { name: 'Differences' });
    const rows = within(diff)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Name', 'Bookkeeper', 'Accountant'],
      ['Guidelines', '(empty)', 'Be exact'],
    ]);
    expect(screen.getByText('Tools added: Divide (Calculator)')).toBeInTheDocument();
    expect(screen.getByText('Tools removed: Add (Calculator)')).toBeInTheDocument();
  });

  it('says when the two versions chosen are the same', async () => {
    fakeApi();
    const { user } = renderApp('/agents/1/edit?section=history');
    const compare = await screen.findByRole('combobox', { name: 'Compare' });
    await user.selectOptions(compare, '2');
    expect(await screen.findByText('These versions are the same.')).toBeInTheDocument();
  });

  it('restores a version after asking, and the form shows the restored agent', async () => {
    const api = fakeApi();
    const { user } = renderApp('/agents/1/edit?section=history');
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore version 1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await findToast('Version 1 restored')).toMatchObject({ type: 'success' });
    expect(api.sent('POST /api/v1/agents/:agent_id/versions/:number/restore')).toHaveLength(1);
    const list = await screen.findByRole('list', { name: 'Saved versions' });
    expect(await within(list).findByText('Restored from version 1')).toBeInTheDocument();
    const sections = screen.getByRole('navigation', { name: 'Agent sections' });
    await user.click(within(sections).getByRole('link', { name: 'Configure' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Bookkeeper'));
    expect(screen.getByRole('textbox', { name: /^Guidelines/ })).toHaveValue('');
  });

  it('names what a restore could not bring back, on a warning', async () => {
    fakeApi([], {
      tools_not_restored: [
        {
          id: 40,
          name: 'create_report',
          display_name: 'Create report',
          app_name: 'Reports',
          provider: 'mcp',
          service_key: 'reports',
        },
      ],
      model_not_restored: 'retired-model',
      files_not_restored: [
        { id: 'f1', name: 'prices.pdf', media_type: 'application/pdf', size_bytes: 10, sha256: 'ab' },
      ],
    });
    const { user } = renderApp('/agents/1/edit?section=history');
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restore version 1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await findToast('Version 1 restored')).toMatchObject({
      type: 'warning',
      duration: RESTORE_WARNING_DURATION,
      description:
        'Not restored: Create report (Reports), whose service is gone; the model retired-model, no longer offered (the default answers); prices.pdf, erased for good.',
    });
  });

  /** Downloads the editor's export, with the files the agent has: the file saved and its bytes. */
  async function exportWith(files: KnowledgeFile[]) {
    const api = fakeApi(files);
    const downloads = captureDownloads();
    const { user } = renderApp('/agents/1/edit');
    await user.click(await screen.findByRole('button', { name: 'Export Accountant' }));
    await waitFor(() => expect(downloads.files).toHaveLength(1));
    downloads.restore();
    return { api, name: downloads.files[0]!.name, blob: downloads.files[0]!.blob! };
  }

  it('downloads the export document as a file', async () => {
    const { api, name, blob } = await exportWith([]);
    expect(name).toBe('Accountant.agent.json');
    expect(api.sent('GET /api/v1/agents/:agent_id/export').map((r) => r.path)).toEqual([
      '/api/v1/agents/1/export',
    ]);
    expect(JSON.parse(await blob.text())).toMatchObject({ format: 'cadre.agent', format_version: 1 });
  });

  it('downloads the zip with the knowledge files when the agent has some', async () => {
    const { api, name, blob } = await exportWith([
      {
        id: 'f1',
        name: 'handbook.md',
        media_type: 'text/markdown',
        size_bytes: 64,
        sha256: 'x',
        pages: null,
        passage_count: 1,
        embedding_model: null,
        created_at: '2026-11-20T10:00:00.000Z',
      },
    ]);
    expect(name).toBe('Accountant.agent.zip');
    expect(api.sent('GET /api/v1/agents/:agent_id/export').map((r) => r.path)).toEqual([
      '/api/v1/agents/1/export?include=files',
    ]);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(ZIP_BYTES);
  });
});
