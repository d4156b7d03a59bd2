import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { SupportPracticePage } from './SupportPracticePage';

const MATERIAL = '/api/assessments/a1/support-material/support';
const COMPLETION = '/api/assessments/a1/support-completion';

function material(version: string, question: string) {
  return {
    type: 'support',
    provider: 'offline',
    version,
    reading: 'Plants make food from light.',
    // As the server sends it to a student: no answer key.
    questions: [{ id: 's1', question, type: 'short_answer', options: [] }],
  };
}

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/support/:id/:type" element={<SupportPracticePage />} />
    </Routes>,
    { route: '/support/a1/support' },
  );
}

describe('SupportPracticePage', () => {
  it('when the answers are submitted, then only they go, with the material version, and the server score shows', async () => {
    const fetchMock = stubFetch({
      [`GET ${MATERIAL}`]: () => jsonResponse(200, material('v1', 'The green pigment is ____.')),
      [`POST ${COMPLETION}`]: () =>
        jsonResponse(200, { score: 100, correct: 1, total: 1, passed: true, message: 'Great Job!' }),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Your answer'), 'chlorophyll');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('practice-score')).toHaveTextContent('100%');
    const completion = fetchMock.mock.calls.find(([url]) => String(url) === COMPLETION);
    // No score of the page's own: the server scores the answers.
    expect(JSON.parse(String(completion?.[1]?.body))).toEqual({
      type: 'support',
      responses: { s1: 'chlorophyll' },
      version: 'v1',
    });
    expect(screen.getByRole('heading', { name: 'Great Job!' })).toBeInTheDocument();
  });

  it('when the server scores the answers below 80, then Keep Practicing shows with Try Again, which starts afresh', async () => {
    stubFetch({
      [`GET ${MATERIAL}`]: () => jsonResponse(200, material('v1', 'The green pigment is ____.')),
      [`POST ${COMPLETION}`]: () =>
        jsonResponse(200, { score: 0, correct: 0, total: 1, passed: false, message: 'Keep Practicing!' }),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Your answer'), 'carotene');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('practice-score')).toHaveTextContent('0%');
    expect(screen.getByRole('heading', { name: 'Keep Practicing' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByLabelText('Your answer')).toHaveValue('');
  });

  it('when the teacher changed the practice meanwhile, then the message shows and the new questions start afresh', async () => {
    const versions = [material('v1', 'The green pigment is ____.'), material('v2', 'Water rises in the ____.')];
    stubFetch({
      [`GET ${MATERIAL}`]: () => jsonResponse(200, versions.length > 1 ? versions.shift() : versions[0]),
      [`POST ${COMPLETION}`]: () =>
        jsonResponse(409, {
          message: 'Your teacher has updated this practice. Please answer the new questions.',
          code: 'practice_changed',
        }),
    });
    const { user } = renderPage();
    await user.type(await screen.findByLabelText('Your answer'), 'chlorophyll');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Your teacher has updated this practice. Please answer the new questions.');
    expect(await screen.findByText('Water rises in the ____.')).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer')).toHaveValue('');
  });
});
