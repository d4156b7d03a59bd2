import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { PrivacyPage } from './PrivacyPage';

const STUDENT = {
  id: '0193a3b0-0000-7000-8000-00000000000a',
  email: 'pia@district.example.org',
  firstName: 'Pia',
  lastName: 'Private',
  role: 'student',
  createdAt: '2026-11-01T10:00:00.000Z',
  emailVerified: true,
  disabled: false,
  source: 'password',
};
const REQUEST = {
  requestId: '0193a3b0-0000-7000-8000-0000000000ff',
  kind: 'export',
  createdAt: '2026-11-23T10:00:00.000Z',
  expected: 5,
  answered: 1,
  complete: false,
  services: [],
};
const ENTRY = {
  id: '1',
  at: '2026-11-23T09:00:00.000Z',
  actorId: 't1',
  actorName: 'Tess Teacher',
  actorRole: 'teacher',
  action: 'read',
  resource: 'GET /api/classes/{id}/grid',
  targetIds: ['c1'],
  requestId: 'r1',
  clientAddress: '127.0.0.1',
  service: 'analytics',
  event: null,
  details: {},
  summary: "Tess Teacher viewed a class's results grid",
};

function routes(extra: Record<string, (init: RequestInit | undefined) => Response> = {}) {
  return stubFetch({
    'GET /api/district/privacy': () => jsonResponse(200, { retentionDays: 365, districtName: 'Springfield' }),
    'GET /api/district/class-joins': () => jsonResponse(200, { studentsOwnClassesOnly: false }),
    'GET /api/district/users?role=student&limit=20': () => jsonResponse(200, { users: [STUDENT], nextCursor: null }),
    'GET /api/district/audit': () => jsonResponse(200, { entries: [ENTRY], nextCursor: null }),
    ...extra,
  });
}

describe('PrivacyPage', () => {
  it('when it loads, then the retention period, the students and the audit log show', async () => {
    routes();
    renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    expect(await screen.findByDisplayValue('365')).toBeInTheDocument();
    expect(await screen.findByText(/Pia Private/)).toBeInTheDocument();
    const table = await screen.findByTestId('audit-table');
    // In names: who did what, not the route and ids.
    expect(within(table).getByText(/Tess Teacher viewed a class's results grid/)).toBeInTheDocument();
    expect(within(table).queryByText(/\/api\//)).not.toBeInTheDocument();
  });

  it('when the admin exports a student, then the progress shows and, once complete, the JSON and CSV links', async () => {
    let polls = 0;
    const fetch = routes({
      [`POST /api/district/students/${STUDENT.id}/exports`]: () => jsonResponse(202, REQUEST),
      [`GET /api/district/privacy/requests/${REQUEST.requestId}`]: () =>
        jsonResponse(200, ++polls > 1 ? { ...REQUEST, answered: 5, complete: true } : REQUEST),
    });
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    await user.click(await screen.findByRole('button', { name: 'Export data' }));
    expect(await screen.findByTestId('privacy-request')).toHaveTextContent(/exported in 1 of 5 services/);
    await waitFor(() => expect(screen.getByTestId('privacy-request')).toHaveTextContent(/Done: exported in 5 of 5/), {
      timeout: 5000,
    });
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute(
      'href',
      `/api/district/students/${STUDENT.id}/exports/${REQUEST.requestId}/download?format=csv`,
    );
    expect(screen.getByRole('link', { name: 'Document for the family (zip)' })).toHaveAttribute(
      'href',
      `/api/district/students/${STUDENT.id}/exports/${REQUEST.requestId}/download?format=zip`,
    );
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true);
  });

  it("when the admin keeps students to the district's classes, then the setting is sent and shown", async () => {
    let own = false;
    const fetch = routes({
      'GET /api/district/class-joins': () => jsonResponse(200, { studentsOwnClassesOnly: own }),
      'PUT /api/district/class-joins': (init) => {
        own = (JSON.parse(String(init?.body)) as { studentsOwnClassesOnly: boolean }).studentsOwnClassesOnly;
        return jsonResponse(200, { studentsOwnClassesOnly: own });
      },
    });
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    const toggle = await screen.findByLabelText("Students may join only this district's classes");
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ studentsOwnClassesOnly: true });
  });

  it('when the audit log is filtered by a person, then the list asks for that person', async () => {
    const fetch = routes({
      'GET /api/district/audit?person=Tess': () => jsonResponse(200, { entries: [ENTRY], nextCursor: null }),
    });
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    await screen.findByTestId('audit-table');
    await user.type(screen.getByLabelText('Person'), 'Tess');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/district/audit?person=Tess'),
    );
  });

  it('when the admin deletes a student, then the student leaves the list and the deletion’s progress stays in view', async () => {
    let deleted = false;
    const fetch = routes({
      'GET /api/district/users?role=student&limit=20': () =>
        jsonResponse(200, { users: deleted ? [] : [STUDENT], nextCursor: null }),
      [`DELETE /api/district/students/${STUDENT.id}`]: () => {
        deleted = true;
        return jsonResponse(202, { ...REQUEST, kind: 'delete_user' });
      },
      [`GET /api/district/privacy/requests/${REQUEST.requestId}`]: () =>
        jsonResponse(200, { ...REQUEST, kind: 'delete_user' }),
    });
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    await user.click(await screen.findByRole('button', { name: 'Delete student' }));
    await user.click(screen.getByRole('button', { name: 'Delete for good' }));
    expect(await screen.findByTestId('privacy-deletion')).toHaveTextContent(
      /Pia Private was deleted from the district\..*deleted in 1 of 5 services/,
    );
    await waitFor(() => expect(screen.queryByText(STUDENT.email)).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Delete student' })).not.toBeInTheDocument();
    const lists = fetch.mock.calls.filter(([url]) => String(url) === '/api/district/users?role=student&limit=20');
    expect(lists.length).toBeGreaterThanOrEqual(2);
  });

  it('when the district name is not typed exactly, then the delete button stays disabled', async () => {
    routes();
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    const input = await screen.findByLabelText(/Type “Springfield” to confirm/);
    const button = screen.getByRole('button', { name: 'Delete district' });
    expect(button).toBeDisabled();
    await user.type(input, 'Springfiel');
    expect(button).toBeDisabled();
    await user.type(input, 'd');
    expect(button).toBeEnabled();
  });

  it('when the audit log is filtered by action, then the list asks for that action', async () => {
    const fetch = routes({
      'GET /api/district/audit?action=delete': () => jsonResponse(200, { entries: [], nextCursor: null }),
    });
    const { user } = renderWithProviders(<PrivacyPage />, { route: '/admin/privacy' });
    await screen.findByTestId('audit-table');
    await user.selectOptions(screen.getByLabelText('Action'), 'delete');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No entries.')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/district/audit?action=delete');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/district/audit/export.csv?action=delete',
    );
  });
});
