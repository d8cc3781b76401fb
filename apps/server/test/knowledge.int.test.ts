import {
  knowledgeFileListSchema,
  knowledgeFileSchema,
  SEARCH_KNOWLEDGE_TOOL,
  searchKnowledgeOutputSchema,
  agentVersionListSchema,
} from '@cadre/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedText } from './support/chat-fixtures.ts';
import { askAgent } from './support/knowledge-api.ts';
import { multipartBody, pdfOf, type Part } from './support/knowledge-files.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './support/test-app.ts';
import { signInAs, startTestIssuer, type TestIssuer } from './support/test-issuer.ts';

const API = '/backend/api/v1';

export const HANDBOOK = [
  '# Staff handbook',
  '',
  '## Holidays',
  '',
  'Every employee gets 27 days of paid holiday a year, plus public holidays.',
  'Unused days carry over until the end of March.',
  '',
  '## Equipment',
  '',
  'Laptops are replaced every three years; ask the IT desk for a loaner meanwhile.',
].join('\n');

export const REFUND_POLICY = [
  ['Refund policy', 'This document describes how customers get their money back.'],
  [
    'Refunds are issued within 14 days of the return arriving at the warehouse.',
    'Shipping costs are not refunded.',
  ],
];

describe(`knowledge files on ${testDatabaseKind()}`, () => {
  let issuer: TestIssuer;
  let t: TestApp;
  let alice: { authorization: string };
  let bob: { authorization: string };
  let agentId: number;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    t = await createTestApp(issuer.env);
    ({ auth: alice } = await signInAs(t, issuer, {
      sub: 'alice',
      email: 'alice@example.com',
      name: 'Alice',
    }));
    ({ auth: bob } = await signInAs(t, issuer, { sub: 'bob', email: 'bob@example.com' }));
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/agents/`,
      headers: alice,
      payload: { name: 'Librarian', description: 'Answers from the files', tool_ids: [] },
    });
    agentId = created.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  const upload = async (parts: Part[], headers: object = alice, id = agentId) => {
    const body = await multipartBody(parts);
    return t.app.inject({
      method: 'POST',
      url: `${API}/agents/${id}/files`,
      headers: { ...(headers as Record<string, string>), ...body.headers },
      payload: body.payload,
    });
  };

  /** One chat turn with the agent on the offline model: the answer's chunks. */
  const ask = (text: string) => askAgent(t, alice, agentId, text);

  it('finds a Markdown and a PDF file by a question and cites the file and passage on the offline model', async () => {
    // With no file attached the agent is not offered the search.
    const unfiled = await ask('According to my documents, how many days of holiday does an employee get?');
    expect(unfiled.some((c) => 'toolName' in c && c.toolName === SEARCH_KNOWLEDGE_TOOL)).toBe(false);

    const markdown = await upload([
      { field: 'file', name: 'handbook.md', bytes: HANDBOOK, type: 'text/markdown' },
    ]);
    expect(markdown.statusCode).toBe(201);
    const md = knowledgeFileSchema.parse(markdown.json());
    expect(md).toMatchObject({ name: 'handbook.md', media_type: 'text/markdown', pages: null });
    expect(md.id).toMatch(/^[0-9a-f-]{36}$/);

    const pdf = await upload([
      {
        field: 'file',
        name: 'refund-policy.pdf',
        bytes: await pdfOf(REFUND_POLICY),
        type: 'application/pdf',
      },
    ]);
    expect(pdf.statusCode).toBe(201);
    expect(pdf.json()).toMatchObject({ name: 'refund-policy.pdf', media_type: 'application/pdf', pages: 2 });

    const listed = knowledgeFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/files`, headers: alice })).json(),
    );
    expect(listed.map((f) => f.name)).toEqual(['handbook.md', 'refund-policy.pdf']);

    const holiday = await ask('According to my documents, how many days of holiday does an employee get?');
    const call = holiday.find((c) => c.type === 'tool-input-available');
    expect(call).toMatchObject({
      toolName: SEARCH_KNOWLEDGE_TOOL,
      input: { query: 'how many days of holiday does an employee get' },
    });
    const output = holiday.find((c) => c.type === 'tool-output-available') as { output: unknown } | undefined;
    const found = searchKnowledgeOutputSchema.parse(output?.output);
    expect(found.passages[0]).toMatchObject({
      n: 1,
      file_id: md.id,
      file_name: 'handbook.md',
      passage: 1,
      page: null,
    });
    const answer = streamedText(holiday);
    // The sentence that holds the fact, not the start of the passage (its headings).
    expect(answer).toContain('> Every employee gets 27 days of paid holiday');
    expect(answer).not.toContain('Staff handbook');
    expect(answer).toContain('[1] handbook.md, passage 1');

    const refunds = streamedText(await ask('What do the files say about refunds?'));
    expect(refunds).toContain('Refunds are issued within 14 days');
    expect(refunds).toMatch(/\[1\] refund-policy\.pdf, page 2, passage \d+/);
  });

  it('lists each file change as a version of the agent, and deleting a file removes it from search', async () => {
    const before = knowledgeFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/files`, headers: alice })).json(),
    );
    const versions = agentVersionListSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/versions`, headers: alice })
      ).json(),
    );
    expect(versions[0]).toMatchObject({ reason: 'files', author: 'Alice' });
    expect(versions[0]!.snapshot.files.map((f) => f.name)).toEqual(before.map((f) => f.name));

    const pdf = before.find((f) => f.name === 'refund-policy.pdf')!;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${API}/agents/${agentId}/files/${pdf.id}`,
      headers: alice,
    });
    expect(deleted.statusCode).toBe(204);
    const after = agentVersionListSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/versions`, headers: alice })
      ).json(),
    );
    expect(after[0]!.number).toBe(versions[0]!.number + 1);
    expect(after[0]!.snapshot.files.map((f) => f.name)).toEqual(['handbook.md']);
    expect(streamedText(await ask('What do the files say about refunds?'))).toContain(
      'I found nothing about “refunds”',
    );
  });

  it("answers 404 for another user's agent and files, and changes nothing", async () => {
    const files = (
      await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/files`, headers: alice })
    ).json<{ id: string }[]>();
    const fileId = files[0]!.id;
    expect((await upload([{ field: 'file', name: 'x.md', bytes: 'hello' }], bob)).statusCode).toBe(404);
    for (const [method, url] of [
      ['GET', `${API}/agents/${agentId}/files`],
      ['GET', `${API}/agents/${agentId}/files/${fileId}/content`],
      ['DELETE', `${API}/agents/${agentId}/files/${fileId}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bob });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const own = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agentId}/files/${fileId}/content`,
      headers: alice,
    });
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe(HANDBOOK);
    expect(own.headers['content-type']).toMatch(/^text\/markdown/);
    expect(own.headers['content-disposition']).toBe(
      `attachment; filename="handbook.md"; filename*=UTF-8''handbook.md`,
    );
  });
});
