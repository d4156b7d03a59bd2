import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { ClassesPage } from './ClassesPage';
import type { ClassItem } from './classesApi';

const base: ClassItem = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Biology',
  subject: 'Science',
  period: '4',
  joinCode: 'BXR7KP',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: 't1',
  teacherName: 'Ada Lovelace',
  studentCount: 3,
  assessmentCount: 1,
  belowStandard: 0,
  atStandard: 0,
  aboveStandard: 0,
  archived: false,
  coTeaching: false,
};
const archivedClass: ClassItem = {
  ...base,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Old Art',
  archived: true,
};

describe('ClassesPage', () => {
  it('when Show Archived is toggled, then the archived list is fetched and titled, and Show Active goes back', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, [base]),
      'GET /api/classes/archived': () => jsonResponse(200, [archivedClass]),
    });
    const { user } = renderWithProviders(<ClassesPage />);
    expect(screen.getByRole('heading', { name: 'My Classes' })).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'Biology' });
    expect(within(card).getByText('Period 4')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /View Details/ })).toHaveAttribute('href', `/class/${base.id}`);
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/classes/archived')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Show Archived' }));
    expect(screen.getByRole('heading', { name: 'Archived Classes' })).toBeInTheDocument();
    const archived = await screen.findByRole('article', { name: 'Old Art' });
    expect(within(archived).queryByRole('link', { name: /View Details/ })).not.toBeInTheDocument();
    expect(within(archived).getByRole('button', { name: 'Restore Old Art' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show Active' }));
    expect(screen.getByRole('heading', { name: 'My Classes' })).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Biology' })).toBeInTheDocument();
  });

  it('when both lists are empty, then each view shows its empty state', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, []),
      'GET /api/classes/archived': () => jsonResponse(200, []),
    });
    const { user } = renderWithProviders(<ClassesPage />);
    expect(await screen.findByRole('heading', { name: 'No classes yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Archived' }));
    expect(await screen.findByRole('heading', { name: 'No archived classes' })).toBeInTheDocument();
  });

  it('when an archived class is restored, then PUT restore is called and the toast shows', async () => {
    let restored = false;
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, restored ? [base, { ...archivedClass, archived: false }] : [base]),
      'GET /api/classes/archived': () => jsonResponse(200, restored ? [] : [archivedClass]),
      [`PUT /api/classes/${archivedClass.id}/restore`]: () => {
        restored = true;
        return jsonResponse(200, { ...archivedClass, archived: false });
      },
    });
    const { user } = renderWithProviders(<ClassesPage />);
    await user.click(screen.getByRole('button', { name: 'Show Archived' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Old Art' }));
    expect(await screen.findByText('Class restored successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No archived classes' })).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([url, init]) => url.toString().endsWith('/restore') && init?.method === 'PUT'),
    ).toBe(true);
  });

  it('when archive is confirmed, then the confirm text shows and the toast follows', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, [base]),
      [`PUT /api/classes/${base.id}/archive`]: () => jsonResponse(200, { ...base, archived: true }),
    });
    const { user } = renderWithProviders(<ClassesPage />);
    await user.click(await screen.findByRole('button', { name: 'Archive Biology' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('hidden from your main view but can be restored later');
    await user.click(within(dialog).getByRole('button', { name: 'Archive Class' }));
    expect(await screen.findByText('Class archived successfully')).toBeInTheDocument();
  });

  it('when Create Class is submitted empty on the classes page, then name, subject and period are required', async () => {
    stubFetch({ 'GET /api/classes': () => jsonResponse(200, []) });
    const { user } = renderWithProviders(<ClassesPage />);
    await screen.findByRole('heading', { name: 'No classes yet' });
    await user.click(screen.getAllByRole('button', { name: 'Create Class' })[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(await within(dialog).findByText('Class name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Subject is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Period is required')).toBeInTheDocument();
    // The classes page variant takes any subject as text.
    expect(within(dialog).getByLabelText('Subject').tagName).toBe('INPUT');
  });

  it('when an edit is saved, then PUT carries the fields and the toast shows', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, [base]),
      [`PUT /api/classes/${base.id}`]: () => jsonResponse(200, { ...base, name: 'Biology II' }),
    });
    const { user } = renderWithProviders(<ClassesPage />);
    await user.click(await screen.findByRole('button', { name: 'Edit Biology' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('Class Name');
    await user.clear(name);
    await user.type(name, 'Biology II');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Class updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ name: 'Biology II', subject: 'Science', period: '4' });
  });

  it('when the teacher co-teaches a class, then its card is marked and offers no delete', async () => {
    stubFetch({
      'GET /api/classes': () =>
        jsonResponse(200, [{ ...base, coTeaching: true, teacherId: 't9', teacherName: 'Olive Owner' }]),
    });
    renderWithProviders(<ClassesPage />);
    const card = await screen.findByRole('article', { name: 'Biology' });
    expect(within(card).getByText('Co-teaching')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Delete Biology' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Archive Biology' })).toBeInTheDocument();
  });
});
