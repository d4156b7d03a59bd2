import { screen } from '@testing-library/react';
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
});
