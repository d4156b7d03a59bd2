import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { BrowseClassesPage } from './BrowseClassesPage';

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
});
