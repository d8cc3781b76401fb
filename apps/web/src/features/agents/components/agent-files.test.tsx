import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { agentFixture } from '../../../test/agent-fixture';
import { installFakeApi, json } from '../../../test/fake-api';
import { findToast, renderApp } from '../../../test/render';
import type { KnowledgeFile } from '../api/knowledge-api';

const AGENT = agentFixture({ id: 1, name: 'Librarian', description: 'Answers from files' });

const file = (id: string, name: string, over: Partial<KnowledgeFile> = {}): KnowledgeFile => ({
  id,
  name,
  media_type: 'text/markdown',
  size_bytes: 2048,
  sha256: 'x',
  pages: null,
  passage_count: 3,
  embedding_model: null,
  created_at: '2026-11-24T09:00:00.000Z',
  ...over,
});

afterEach(() => toaster.remove());

describe('the agent editor’s knowledge files (/agents/:id/edit)', () => {
  it('uploads chosen files one by one, shows a refusal in the server’s words, lists and deletes', async () => {
    let files = [file('f1', 'handbook.md')];
    const api = installFakeApi({
      'GET /api/v1/agents/': () => json([AGENT]),
      'GET /api/v1/agents/:agent_id/agent': () => json(AGENT),
      'GET /api/v1/agents/:agent_id/versions': () => json([]),
      'GET /api/v1/services/active': () => json([]),
      'GET /api/v1/agents/:agent_id/tool-permissions': () => json({ data: [] }),
      'GET /api/v1/agents/:agent_id/files': () => json(files),
      'POST /api/v1/agents/:agent_id/files': ({ body }) => {
        // jsdom's File reaches the fetch as a plain blob (no name, no bytes); its type survives.
        if (String(body).includes('Content-Type: image/png'))
          return json(
            {
              detail: 'The file is image/png (by its content); a knowledge file must be PDF.',
              code: 'unsupported_media_type',
            },
            415,
          );
        const added = file('f2', 'policy.pdf', { media_type: 'application/pdf', pages: 2 });
        files = [...files, added];
        return json(added, 201);
      },
      'DELETE /api/v1/agents/:agent_id/files/:file_id': ({ params }) => {
        files = files.filter((f) => f.id !== params.file_id);
        return json(null, 204);
      },
    });
    renderApp('/agents/1/edit?section=knowledge');
    const list = await screen.findByTestId('knowledge-files');
    expect(within(list).getByText('handbook.md')).toBeInTheDocument();
    expect(within(list).getByText('2.0 KB · 3 passages')).toBeInTheDocument();

    // A person can pick "All files" in the dialog: the server, not the picker, decides.
    await userEvent
      .setup({ applyAccept: false })
      .upload(screen.getByTestId('knowledge-file-input'), [
        new File(['%PDF-1.7'], 'policy.pdf', { type: 'application/pdf' }),
        new File(['png'], 'photo.png', { type: 'image/png' }),
      ]);
    expect(await findToast('policy.pdf added')).toMatchObject({ type: 'success' });
    expect(await findToast('photo.png was not added')).toMatchObject({
      type: 'error',
      description: 'The file is image/png (by its content); a knowledge file must be PDF.',
    });
    await waitFor(() =>
      expect(within(screen.getByTestId('knowledge-files')).getByText('policy.pdf')).toBeInTheDocument(),
    );
    const uploads = api.requests.filter((r) => r.method === 'POST');
    expect(uploads).toHaveLength(2);
    // One pick is one batch (one version of the agent): both uploads carry the same batch id.
    const batches = uploads.map((r) => new URL(r.path, 'http://x').searchParams.get('batch'));
    expect(batches[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(batches[1]).toBe(batches[0]);
    // Each file its own key: a retry of one upload attaches that file once, and never the other.
    const keys = uploads.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(uploads[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(uploads[0]!.body)).toContain('Content-Disposition: form-data; name="file"');

    await userEvent.click(screen.getByRole('button', { name: 'Delete handbook.md' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await findToast('handbook.md deleted')).toMatchObject({ type: 'success' });
    await waitFor(() => expect(screen.queryByText('handbook.md')).toBeNull());
    expect(api.requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/agents/1/files/f1')).toBe(
      true,
    );
  });
});
