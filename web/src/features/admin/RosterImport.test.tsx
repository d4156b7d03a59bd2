import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { RosterImport } from './RosterImport';
import type { RosterImport as RosterImportView } from './rosterApi';

const ID = '0a0b0c0d-0000-4000-8000-000000000001';
const counts = (over: Partial<Record<string, number>> = {}) => ({
  rows: 0,
  new: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  read: 0,
  invalid: 0,
  dropped: 0,
  ...over,
});
const PREVIEW: RosterImportView = {
  id: ID,
  mode: 'bulk',
  status: 'previewed',
  progress: { done: 0, total: 3 },
  counts: {
    users: counts({ rows: 3, new: 2, invalid: 1 }),
    classes: counts({ rows: 1, new: 1 }),
    enrollments: counts({ rows: 3, new: 2, invalid: 1 }),
  },
  errorCount: 2,
  failure: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  errors: [
    { file: 'users.csv', line: 4, sourcedId: 's2', field: 'email', message: 'email "nope" is not an email address' },
    { file: 'enrollments.csv', line: 3, sourcedId: 'e3', field: 'userSourcedId', message: 'user s2 was skipped' },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RosterImport', () => {
  it('when an admin previews a package and applies it, then counts and error lines show, the progress is polled, and a summary ends it', async () => {
    let polls = 0;
    let applied = false;
    const fetchMock = stubFetch({
      'POST /api/district/roster/imports': () => jsonResponse(201, PREVIEW),
      [`GET /api/district/roster/imports/${ID}`]: () => {
        if (!applied) return jsonResponse(200, PREVIEW);
        polls++;
        return jsonResponse(
          200,
          polls < 3
            ? { ...PREVIEW, status: 'running', progress: { done: 1, total: 3 } }
            : { ...PREVIEW, status: 'done', progress: { done: 3, total: 3 } },
        );
      },
      [`POST /api/district/roster/imports/${ID}/apply`]: () => {
        applied = true;
        return jsonResponse(202, { ...PREVIEW, status: 'running', errors: undefined });
      },
    });
    const { user } = renderWithProviders(<RosterImport />);
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'district.zip', { type: 'application/zip' });
    await user.upload(screen.getByLabelText('OneRoster package'), zip);
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const preview = await screen.findByTestId('roster-preview');
    const rows = within(within(preview).getByRole('table', { name: 'Rows per file' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/users\.csv\s*3\s*2\s*0\s*0\s*0\s*0\s*1/);
    const errors = within(preview).getByRole('table', { name: 'Rows with errors' });
    expect(within(errors).getByText('email "nope" is not an email address').closest('tr')).toHaveTextContent(
      /users\.csv\s*4\s*s2\s*email/,
    );
    expect(within(preview).getByRole('button', { name: 'Download errors CSV' })).toHaveAttribute(
      'href',
      `/api/district/roster/imports/${ID}/errors.csv`,
    );
    // The upload is the file itself, not JSON.
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(init!.body).toBe(zip);
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe('application/zip');

    // Applying asks first, saying what will happen; nothing is sent before the confirmation.
    await user.click(within(preview).getByRole('button', { name: 'Apply…' }));
    const confirm = screen.getByTestId('roster-confirm');
    expect(confirm).toHaveTextContent('Users: 2 accounts created, 0 updated, 0 removed');
    expect(confirm).toHaveTextContent('Each new account with an e-mail address gets a welcome e-mail');
    expect(confirm).toHaveTextContent('Classes: 1 created, 0 updated, 0 archived.');
    expect(confirm).toHaveTextContent('Enrollments: 2 added, 0 ended.');
    expect(confirm).toHaveTextContent('2 rows have errors and will be skipped.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('roster-confirm')).not.toBeInTheDocument();
    expect(applied).toBe(false);
    await user.click(within(preview).getByRole('button', { name: 'Apply…' }));
    await user.click(within(screen.getByTestId('roster-confirm')).getByRole('button', { name: 'Confirm and apply' }));
    expect(await screen.findByRole('progressbar')).toHaveTextContent('1 / 3');
    await waitFor(() => expect(screen.getByTestId('roster-summary')).toHaveTextContent(/Import complete: 2 new/), {
      timeout: 5000,
    });
    expect(screen.getByTestId('roster-summary')).toHaveTextContent('2 rows were skipped.');
    expect(polls).toBeGreaterThanOrEqual(3);
  }, 15_000);

  it('when the package is refused, then the server’s reason shows and nothing is previewed', async () => {
    stubFetch({
      'POST /api/district/roster/imports': () =>
        jsonResponse(400, {
          code: 'invalid_roster',
          message: 'manifest.csv: oneroster.version is "1.0"; 1.2 (or 1.1) is read',
        }),
    });
    const { user } = renderWithProviders(<RosterImport />);
    await user.upload(screen.getByLabelText('OneRoster package'), new File(['x'], 'old.zip'));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText(/oneroster.version is "1.0"/)).toBeInTheDocument();
    expect(screen.queryByTestId('roster-preview')).not.toBeInTheDocument();
  });

  it('when a single CSV is chosen, then its kind is taken from the name and sent as ?file=', async () => {
    const fetchMock = stubFetch({
      'POST /api/district/roster/imports?file=users': () =>
        jsonResponse(201, { ...PREVIEW, errorCount: 0, errors: [] }),
    });
    const { user } = renderWithProviders(<RosterImport />);
    await user.upload(screen.getByLabelText('OneRoster package'), new File(['a,b'], 'users.csv', { type: 'text/csv' }));
    expect(screen.getByLabelText('Which OneRoster file is it?')).toHaveValue('users');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByTestId('roster-preview');
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/district/roster/imports?file=users')).toBe(true);
  });
});
