import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../../components/ui/toaster';
import { held, installFakeApi, json, type ApiRequest } from '../../../test/fake-api';
import { pickMenuItem } from '../../../test/menus';
import { findToast, renderApp } from '../../../test/render';
import { captureDownloads } from '../../../test/downloads';
import type { UsageReport, UsageRow } from '../api/usage-api';
import { EMPTY_COUNTS } from '../usage-logic';

const counts = EMPTY_COUNTS;
const row = (fields: Partial<UsageRow>): UsageRow => ({
  ...counts,
  day: null,
  agent_id: null,
  agent_name: null,
  model: null,
  ...fields,
});

const today = new Date().toISOString().slice(0, 10);

/** The server's answer for the query the screen sent. */
function reportFor(request: ApiRequest): UsageReport {
  const query = new URLSearchParams(request.path.split('?')[1]);
  const groupBy = query.get('group_by');
  const rows =
    groupBy === 'agent'
      ? [
          row({
            agent_id: 1,
            agent_name: 'Mail Sorter',
            turns: 3,
            input_tokens: 300,
            output_tokens: 120,
            cost: 0.0021,
          }),
          row({ agent_id: 9, agent_name: null, turns: 1, input_tokens: 10, output_tokens: 5, errors: 1 }),
        ]
      : groupBy === 'model'
        ? [
            row({
              model: 'offline',
              turns: 4,
              input_tokens: 310,
              output_tokens: 125,
              estimated: true,
              cost: 0,
            }),
          ]
        : [row({ day: today, turns: 4, input_tokens: 310, output_tokens: 125, tool_calls: 2, errors: 1 })];
  return {
    from: query.get('from')!,
    to: query.get('to')!,
    group_by: [groupBy as 'day'],
    rows,
    totals: {
      ...counts,
      estimated: true,
      turns: 4,
      input_tokens: 310,
      output_tokens: 125,
      total_tokens: 435,
      cost: 0.0021,
      tool_calls: 2,
      errors: 1,
    },
    budget: { monthly_tokens: 1000, used_tokens: 435, resets_at: '2026-08-01T00:00:00.000Z' },
  };
}

afterEach(() => toaster.remove());

describe('the Usage screen (/usage)', () => {
  it('is reachable from the user menu and shows the budget, totals, a chart and a table per day, agent or model', async () => {
    const api = installFakeApi({ 'GET /api/v1/usage': (request) => json(reportFor(request)) });
    const { user } = renderApp('/services');
    await screen.findByRole('heading', { name: 'Services' });
    await pickMenuItem(
      user,
      screen.getAllByRole('button', { name: 'Account menu of Mock User' })[0]!,
      'Usage',
    );

    expect(await screen.findByRole('heading', { name: 'Usage' })).toBeInTheDocument();
    expect(await screen.findByTestId('usage-budget')).toHaveTextContent(
      'This month: 435 of 1,000 tokens used. The count starts again on August 1, 2026 (UTC).',
    );
    const used = screen.getByRole('progressbar', { name: '44%' });
    expect([used.getAttribute('aria-valuenow'), used.getAttribute('aria-valuemax')]).toEqual(['435', '1000']);
    expect(screen.getByRole('img', { name: 'Input and output tokens by day' })).toBeInTheDocument();
    const byDay = screen.getByRole('row', { name: today });
    expect(
      within(byDay)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([`${today} `, '4', '310', '125', '—', '2', '1']);
    // The last 30 days, grouped by day.
    const sent = api.sent('GET /api/v1/usage').at(-1)!.path;
    const query = new URLSearchParams(sent.split('?')[1]);
    expect(query.get('group_by')).toBe('day');
    expect(query.get('to')).toBe(today);
    expect((Date.parse(query.get('to')!) - Date.parse(query.get('from')!)) / 86_400_000).toBe(29);

    await user.click(screen.getByText('By agent'));
    const sorter = await screen.findByRole('row', { name: 'Mail Sorter' });
    expect(sorter).toHaveTextContent('0.0021');
    expect(screen.getByRole('row', { name: 'Deleted agent #9' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Input and output tokens by agent' })).toBeInTheDocument();

    await user.click(screen.getByText('By model'));
    const offline = await screen.findByRole('row', { name: 'offline' });
    expect(offline).toHaveTextContent('estimated');
    expect(screen.getByText(/about four characters a token/)).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'Last 7 days');
    await waitFor(() => {
      const last = new URLSearchParams(api.sent('GET /api/v1/usage').at(-1)!.path.split('?')[1]);
      expect((Date.parse(last.get('to')!) - Date.parse(last.get('from')!)) / 86_400_000).toBe(6);
      expect(last.get('group_by')).toBe('model');
    });
  });

  it('shows its loading state, then says when there is nothing in the period', async () => {
    const answer = held();
    installFakeApi({ 'GET /api/v1/usage': answer.handler });
    renderApp('/usage');
    expect(await screen.findByText('Loading usage...')).toBeInTheDocument();
    answer.release(
      json({
        from: today,
        to: today,
        group_by: ['day'],
        rows: [],
        totals: counts,
        budget: { monthly_tokens: null, used_tokens: 0, resets_at: '2026-08-01T00:00:00.000Z' },
      }),
    );
    expect(await screen.findByTestId('usage-empty')).toHaveTextContent('No usage in this period');
    expect(screen.getByTestId('usage-budget')).toHaveTextContent(
      'This month: 0 tokens used. No monthly budget is set.',
    );
    expect(screen.queryByTestId('usage-chart')).not.toBeInTheDocument();
  });

  it('says when usage cannot be loaded and loads it again on retry', async () => {
    let fail = true;
    installFakeApi({
      'GET /api/v1/usage': (request) =>
        fail ? json({ detail: 'Boom', code: 'internal_error' }, 500) : json(reportFor(request)),
    });
    const { user } = renderApp('/usage');
    expect(await screen.findByText('Error loading usage.', {}, { timeout: 10_000 })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    // The report comes back and its chart and table render: seconds on a busy machine.
    expect(await screen.findByRole('row', { name: today }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByText('Error loading usage.')).not.toBeInTheDocument();
  });

  it('downloads the same report as a CSV file, and says so when it fails', async () => {
    let csvStatus = 200;
    const api = installFakeApi({
      'GET /api/v1/usage': (request) => json(reportFor(request)),
      'GET /api/v1/usage/csv': () =>
        csvStatus === 200
          ? new Response('day,turns\n2026-07-01,4\n', { headers: { 'content-type': 'text/csv' } })
          : json({ detail: 'Boom', code: 'internal_error' }, 500),
    });
    const downloads = captureDownloads();
    const { user } = renderApp('/usage');
    await screen.findByRole('row', { name: today });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(downloads.files).toHaveLength(1));
    const report = api.sent('GET /api/v1/usage').at(-1)!.path.split('?')[1];
    expect(api.sent('GET /api/v1/usage/csv').map((r) => r.path.split('?')[1])).toEqual([report]);
    const query = new URLSearchParams(report);
    expect(downloads.files[0]!.name).toBe(`cadre-usage-${query.get('from')}-to-${query.get('to')}.csv`);
    expect(await downloads.files[0]!.blob!.text()).toBe('day,turns\n2026-07-01,4\n');

    csvStatus = 500;
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await findToast('Download failed')).toMatchObject({ type: 'error' });
    expect(downloads.files).toHaveLength(1);
    downloads.restore();
  });
});
