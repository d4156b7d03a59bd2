import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { STUDENT, stubFetch } from '../../test/fetchStub';
import { makeStore } from '../../app/store';
import { authApi } from '../../session/authApi';
import { BrowseClassesPage } from './BrowseClassesPage';

async function asStudent(accountType: 'individual' | 'district') {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, { ...STUDENT, accountType }));
  return store;
}

const cls = (id: string, name: string, teacherId: string) => ({
  id,
  name,
  period: '1',
  subject: 'History',
  teacherId,
  teacherName: 'Test Teacher',
  studentCount: 3,
});

describe('BrowseClassesPage', () => {
  it('when the lists are still loading, then the counts show — and no empty state; then they leave out joined classes', async () => {
    let enrolmentsLoaded: (response: Response) => void = () => undefined;
    stubFetch({
      'GET /api/all-classes': () =>
        jsonResponse(200, [cls('c1', 'World History', 't1'), cls('c2', 'Geography', 't2'), cls('c3', 'Civics', 't2')]),
      'GET /api/student/classes': () => new Promise<Response>((resolve) => (enrolmentsLoaded = resolve)),
    });
    renderWithProviders(<BrowseClassesPage />);
    expect(screen.getByTestId('stat-Available Classes')).toHaveTextContent('—');
    expect(screen.getByTestId('stat-Classes Joined')).toHaveTextContent('—');
    expect(screen.getByTestId('stat-Teachers')).toHaveTextContent('—');
    expect(screen.queryByText('No Classes Available')).not.toBeInTheDocument();

    enrolmentsLoaded(
      jsonResponse(200, [
        {
          id: 'e1',
          classId: 'c1',
          class: { name: 'World History', period: '1', subject: 'History', teacherName: null },
        },
      ]),
    );
    expect(await screen.findByRole('article', { name: 'Geography' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'World History' })).not.toBeInTheDocument();
    expect(screen.getByTestId('stat-Available Classes')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-Classes Joined')).toHaveTextContent('1');
    expect(screen.getByTestId('stat-Teachers')).toHaveTextContent('1');
  });

  it('when a student outside a district finds nothing to browse, then the page says where classes come from and links to the class code', async () => {
    stubFetch({
      'GET /api/all-classes': () => jsonResponse(200, []),
      'GET /api/student/classes': () => jsonResponse(200, []),
    });
    renderWithProviders(<BrowseClassesPage />, { store: await asStudent('individual') });
    expect(
      await screen.findByText(
        'Classes you can browse come from your school district. Ask your teacher for a class code.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Use Class Code Instead' })).toHaveAttribute('href', '/join-class');
  });

  it('when a district student has joined every class there is, then the page says none is open in the district', async () => {
    stubFetch({
      'GET /api/all-classes': () => jsonResponse(200, [cls('c1', 'World History', 't1')]),
      'GET /api/student/classes': () =>
        jsonResponse(200, [
          {
            id: 'e1',
            classId: 'c1',
            class: { name: 'World History', period: '1', subject: 'History', teacherName: null },
          },
        ]),
    });
    renderWithProviders(<BrowseClassesPage />, { store: await asStudent('district') });
    expect(
      await screen.findByText(
        'No class in your school district is open to join right now. Ask your teacher for a class code.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/come from your school district/)).not.toBeInTheDocument();
  });
});
