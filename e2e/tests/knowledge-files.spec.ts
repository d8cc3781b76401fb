import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createAgent, send, startAgentChat } from '../support/chat.ts';
import { pickMenuItem } from '../support/menus.ts';
import { signUpAndSignIn } from '../support/sign-in.ts';

/**
 * Knowledge files (issue 20, item 2): the editor's Files section uploads, lists and deletes files,
 * and the chat frame shows the citation of an answer that searched them and opens the passage.
 */

const HANDBOOK = [
  '# Staff handbook',
  '',
  '## Holidays',
  '',
  'Every employee gets 27 days of paid holiday a year, plus public holidays.',
].join('\n');

async function refundPolicyPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf
    .addPage()
    .drawText('Refunds are issued within 14 days of the return.', { x: 50, y: 700, size: 12, font });
  return Buffer.from(await pdf.save());
}

test("the editor's files section uploads, lists and deletes; the frame shows the citation and opens the passage", async ({
  page,
}) => {
  // Two uploads (the PDF read in its worker thread), a reload and a chat turn.
  test.setTimeout(120_000);
  await signUpAndSignIn(page);
  await createAgent(page, 'Librarian', []);
  await page.goto('/agents');
  await pickMenuItem(page, page.getByRole('button', { name: 'Actions for Librarian', exact: true }), 'Edit');
  await page
    .getByRole('navigation', { name: 'Agent sections' })
    .getByRole('link', { name: 'Knowledge' })
    .click();

  const section = page.getByRole('region', { name: 'Knowledge files' });
  await expect(section.getByText('No files yet.')).toBeVisible();
  await page.getByLabel('Files to add').setInputFiles([
    { name: 'handbook.md', mimeType: 'text/markdown', buffer: Buffer.from(HANDBOOK) },
    { name: 'refund-policy.pdf', mimeType: 'application/pdf', buffer: await refundPolicyPdf() },
  ]);
  const files = page.getByTestId('knowledge-files');
  await expect(files.getByText('handbook.md')).toBeVisible();
  await expect(files.getByText('refund-policy.pdf')).toBeVisible();
  await expect(files.getByText(/1 page · 1 passage/)).toBeVisible();

  await page.getByRole('button', { name: 'Delete refund-policy.pdf' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(files.getByText('refund-policy.pdf')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('knowledge-files').getByText('handbook.md')).toBeVisible();
  await expect(page.getByTestId('knowledge-files').getByText('refund-policy.pdf')).toHaveCount(0);

  const frame = await startAgentChat(page, 'Librarian');
  await send(frame, 'According to my documents, how many days of holiday does an employee get?');
  const answer = frame.getByTestId('assistant-message').last();
  await expect(answer).toContainText('27 days of paid holiday');
  const citation = answer.getByTestId('citation');
  await expect(citation).toHaveText('[1] handbook.md, passage 1');
  await expect(answer.getByTestId('citation-passage')).toHaveCount(0);
  await citation.click();
  await expect(answer.getByTestId('citation-passage')).toContainText(
    'Every employee gets 27 days of paid holiday a year',
  );
});
