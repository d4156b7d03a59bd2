import { screen, within } from '@testing-library/react';
import { Route, Routes, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AssessmentsPage } from './AssessmentsPage';

function ResultsTarget() {
  const { id } = useParams();
  return <p>Results page of {id}</p>;
}

describe('AssessmentsPage', () => {
  it('when Results is clicked on a card, then the results page of that assessment opens', async () => {
    stubFetch({
      'GET /api/assessments': () =>
        jsonResponse(200, [
          {
            id: 'a1',
            classId: 'c1',
            title: 'Fractions Quiz',
            description: '',
            topic: 'Fractions',
            standard: '',
            dueDate: null,
            isActive: true,
            createdAt: '2024-03-05T10:00:00.000Z',
            questionCount: 2,
          },
        ]),
    });
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/assessments" element={<AssessmentsPage />} />
        <Route path="/assessment-results/:id" element={<ResultsTarget />} />
      </Routes>,
      { route: '/assessments' },
    );
    const results = await screen.findByRole('link', { name: 'Results of Fractions Quiz' });
    expect(results).toHaveTextContent('Results');
    await user.click(results);
    expect(await screen.findByText('Results page of a1')).toBeInTheDocument();
  });

  it('when assessments are a draft, assigned and closed, then each card says so and a past due date is flagged', async () => {
    const card = (id: string, title: string, more: object) => ({
      id,
      classId: 'c1',
      title,
      description: '',
      topic: 'Cells',
      standard: '',
      dueDate: null,
      isActive: true,
      createdAt: '2026-03-05T10:00:00.000Z',
      className: 'Biology 7',
      questionCount: 2,
      ...more,
    });
    stubFetch({
      'GET /api/assessments': () =>
        jsonResponse(200, [
          card('a1', 'New Quiz', { status: 'draft', assignedTo: [] }),
          card('a2', 'Cells Quiz', {
            status: 'assigned',
            isAssigned: true,
            assignedTo: [{ classId: 'c1', className: 'Biology 7' }],
            dueDate: '2020-01-02T10:00:00.000Z',
          }),
          card('a3', 'Old Quiz', { status: 'closed', isAssigned: true, isActive: false }),
        ]),
    });
    const { user } = renderWithProviders(<AssessmentsPage />, { route: '/assessments' });
    const draft = await screen.findByRole('article', { name: 'New Quiz' });
    expect(within(draft).getByTestId('lifecycle-status')).toHaveTextContent('Draft');
    expect(within(draft).getByText(/students cannot see it until you assign it/)).toBeInTheDocument();
    // One word for where it stands: no "Active" beside "Draft".
    expect(within(draft).queryByText('Active')).not.toBeInTheDocument();
    const assigned = screen.getByRole('article', { name: 'Cells Quiz' });
    expect(within(assigned).getByTestId('lifecycle-status')).toHaveTextContent('Assigned to Biology 7');
    expect(within(assigned).getByText('Past due')).toBeInTheDocument();
    expect(within(assigned).getByText('Active')).toBeInTheDocument();
    expect(within(draft).queryByText('Past due')).not.toBeInTheDocument();
    // The spec's toggle: the closed (inactive) one is under Show Inactive Only.
    expect(screen.queryByRole('article', { name: 'Old Quiz' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Inactive Only' }));
    const closed = await screen.findByRole('article', { name: 'Old Quiz' });
    expect(within(closed).getByTestId('lifecycle-status')).toHaveTextContent('Closed');
  });
});
