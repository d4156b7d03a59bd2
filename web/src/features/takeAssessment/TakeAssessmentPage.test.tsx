import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { STUDENT, stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import type { Result } from '../assessments/assessmentsApi';
import { AnswerStore } from './answerStore';
import { TakeAssessmentPage } from './TakeAssessmentPage';

const ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Geography check',
  description: '',
  dueDate: null,
  isActive: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  className: 'Geography',
  subject: 'Social Studies',
  questionCount: 2,
  submitted: false,
  resultId: null,
};

const QUESTIONS = [
  {
    id: 'q1',
    assessmentId: 'a1',
    questionText: 'Capital of France?',
    questionType: 'multiple_choice',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    points: '1.00',
    position: 1,
  },
  {
    id: 'q2',
    assessmentId: 'a1',
    questionText: '2 + 2 = ?',
    questionType: 'short_answer',
    options: [],
    points: '1.00',
    position: 2,
  },
];

function result(overrides: Partial<Result>): Result {
  return {
    id: 'r1',
    assessmentId: 'a1',
    totalPoints: '2.00',
    earnedPoints: '1.00',
    percentage: '50.00',
    score: 50,
    performanceLevel: 'below',
    isSubmitted: true,
    submittedAt: '2026-03-05T10:00:00.000Z',
    correctAnswers: 1,
    incorrectAnswers: 1,
    totalQuestions: 2,
    questions: [
      {
        ...QUESTIONS[0]!,
        questionId: 'q1',
        questionType: 'multiple_choice',
        correctAnswer: 'Paris',
        answer: 'Paris',
        correct: true,
      },
      {
        ...QUESTIONS[1]!,
        questionId: 'q2',
        questionType: 'short_answer',
        correctAnswer: '4',
        answer: null,
        correct: false,
      },
    ],
    ...overrides,
  };
}

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/assessment/:id" element={<TakeAssessmentPage />} />
    </Routes>,
    { route: '/assessment/a1' },
  );
}

const reviewItems = async () =>
  within(await screen.findByRole('region', { name: 'Review Your Answers' })).getAllByRole('listitem');

describe('TakeAssessmentPage result', () => {
  it('when the student submits, then the score, the level and each question with their answer and the key show', async () => {
    const fetchMock = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, STUDENT),
      'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
      'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
      'GET /api/assessments/a1/responses': () => jsonResponse(200, []),
      'POST /api/responses': (init) =>
        jsonResponse(200, { id: 'x', updatedAt: '2026-03-05T10:00:00.000Z', ...JSON.parse(String(init?.body)) }),
      'POST /api/results': () => jsonResponse(201, result({})),
    });
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));

    expect(await screen.findByTestId('result-score')).toHaveTextContent('50%');
    expect(screen.getByTestId('result-level')).toHaveTextContent('Below Standard');
    const [first, second] = await reviewItems();
    expect(first).toHaveTextContent('Question 1: Capital of France?');
    expect(first).toHaveTextContent('Your answer: Paris');
    expect(first).toHaveTextContent('Correct answer: Paris');
    expect(within(first!).getByTestId('review-mark')).toHaveTextContent(/^Correct$/);
    expect(second).toHaveTextContent('Question 2: 2 + 2 = ?');
    expect(second).toHaveTextContent('Your answer: No answer');
    expect(second).toHaveTextContent('Correct answer: 4');
    // The mark is words as well as an icon (never colour alone).
    const mark = within(second!).getByTestId('review-mark');
    expect(mark).toHaveTextContent(/^Incorrect$/);
    expect(mark.querySelector('svg')).not.toBeNull();
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/responses' && init?.method === 'POST')).toBe(true);
  });

  it('when a submitted assessment of 85% at standard is opened again, then it says At Standard and shows the review', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, STUDENT),
      'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, submitted: true, resultId: 'r1' }),
      'GET /api/results/r1': () =>
        jsonResponse(200, result({ score: 85, percentage: '85.00', performanceLevel: 'at', correctAnswers: 2 })),
    });
    renderPage();
    expect(await screen.findByTestId('result-score')).toHaveTextContent('85%');
    expect(screen.getByTestId('result-level')).toHaveTextContent('At Standard');
    expect(screen.getByRole('link', { name: 'Challenge Work' })).toHaveAttribute('href', '/support/a1/enrichment');
    expect(await reviewItems()).toHaveLength(2);
  });
});

describe('TakeAssessmentPage unsent answers', () => {
  it('when sending the unsent answers fails for a passing reason, then they are sent again without the student doing anything', async () => {
    // An answer kept on this device from an earlier visit, never sent.
    const kept = await AnswerStore.open(STUDENT.id, 'a1');
    kept.setAnswer('q2', '4');
    await kept.persisted();
    const tries: number[] = [];
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, STUDENT),
      'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
      'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
      'GET /api/assessments/a1/responses': () => jsonResponse(200, []),
      'POST /api/responses': (init) => {
        tries.push(Date.now());
        // The server is restarting on the first try.
        if (tries.length === 1) return jsonResponse(503, { message: 'Unavailable', code: 'unavailable' });
        return jsonResponse(200, { id: 'x', updatedAt: '2026-03-05T10:00:00.000Z', ...JSON.parse(String(init?.body)) });
      },
    });
    renderPage();
    expect(await screen.findByText(/kept on this device/)).toBeInTheDocument();
    await waitFor(() => expect(tries).toHaveLength(2), { timeout: 5_000 });
    await waitFor(() => expect(screen.queryByText(/kept on this device/)).not.toBeInTheDocument());
  }, 10_000);
});
