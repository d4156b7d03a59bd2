// Grading by hand on the assessment results page: the teacher opens a student's result, marks an
// answer right (or part points) with feedback and writes feedback on the whole result; the answers
// waiting for review are listed and marked in place.
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import type { Result, ReviewItem } from '../assessments';
import type { AssessmentResults } from '../results';
import { AssessmentResultsPage } from './AssessmentResultsPage';

afterEach(() => vi.unstubAllGlobals());

const PAGE: AssessmentResults = {
  assessment: { id: 'a1', title: 'Water cycle', topic: 'Water', classId: 'c1', className: 'Science', questionCount: 1 },
  summary: { submitted: 1, classSize: 1, averageScore: 0, aboveStandard: 0, atStandard: 0, belowStandard: 1 },
  classes: [{ classId: 'c1', className: 'Science', classSize: 1, submitted: 1, averageScore: 0 }],
  results: [
    {
      id: 'r1',
      studentId: 's1',
      classId: 'c1',
      className: 'Science',
      student: { firstName: 'Ada', lastName: 'Adams' },
      percentage: 0,
      earnedPoints: 0,
      totalPoints: 2,
      performanceLevel: 'below',
      originalLevel: 'below',
      raisedBy: null,
      raisedAttempt: null,
      attempt: 1,
      submittedAt: '2026-03-05T10:00:00.000Z',
      practice: [],
      answers: [{ questionId: 'q1', answer: 'the sun heats the water', correct: false, pending: false }],
    },
  ],
  questions: [
    {
      id: 'q1',
      position: 1,
      questionText: 'What turns water into vapour?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'evaporation',
      points: 2,
      answered: 1,
      correctCount: 0,
      awaitingReview: 0,
      shareCorrect: 0,
      discrimination: null,
      optionCounts: [],
    },
  ],
  distribution: [],
  standards: [],
};

const RESULT: Result = {
  id: 'r1',
  assessmentId: 'a1',
  studentId: 's1',
  classId: 'c1',
  totalPoints: '2.00',
  earnedPoints: '0.00',
  percentage: '0.00',
  score: 0,
  performanceLevel: 'below',
  originalLevel: 'below',
  raisedBy: null,
  raisedAttempt: null,
  attempt: 1,
  maxAttempts: 1,
  counted: true,
  countedAttempt: 'latest' as const,
  isSubmitted: true,
  submittedAt: '2026-03-05T10:00:00.000Z',
  correctAnswers: 0,
  incorrectAnswers: 1,
  totalQuestions: 1,
  feedback: null,
  pendingReview: 0,
  regradedAt: null,
  className: 'Science',
  assessment: { title: 'Water cycle', description: '' },
  student: { firstName: 'Ada', lastName: 'Adams' },
  questions: [
    {
      questionId: 'q1',
      position: 1,
      questionText: 'What turns water into vapour?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'evaporation',
      acceptedAnswers: [],
      points: '2.00',
      answer: 'the sun heats the water',
      correct: false,
      earnedPoints: '0.00',
      pending: false,
      shownOptions: null,
      feedback: null,
    },
  ],
};

const regraded = (earned: string, feedback: string | null): Result => ({
  ...RESULT,
  earnedPoints: earned,
  score: (Number(earned) / 2) * 100,
  percentage: ((Number(earned) / 2) * 100).toFixed(2),
  questions: [{ ...RESULT.questions[0]!, earnedPoints: earned, correct: earned === '2.00', feedback }],
});

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/assessment-results/:id" element={<AssessmentResultsPage />} />
    </Routes>,
    { route: '/assessment-results/a1' },
  );
}

describe('grading by hand', () => {
  it('when the teacher marks a short answer right with feedback, then the mark is sent and the score shown follows', async () => {
    let current = RESULT;
    const bodies: unknown[] = [];
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, PAGE),
      'GET /api/assessments/a1/to-review': () => jsonResponse(200, []),
      'GET /api/results/r1': () => jsonResponse(200, current),
      'PATCH /api/results/r1/responses/q1': (init) => {
        const body = JSON.parse(String(init?.body)) as { earnedPoints: number; feedback: string };
        bodies.push(body);
        current = regraded(body.earnedPoints.toFixed(2), body.feedback);
        return jsonResponse(200, current);
      },
      'PUT /api/results/r1/feedback': (init) => {
        const body = JSON.parse(String(init?.body)) as { feedback: string };
        bodies.push(body);
        current = { ...current, feedback: body.feedback };
        return jsonResponse(200, current);
      },
    });
    const { user } = renderPage();

    await user.click(await screen.findByRole('button', { name: 'Grade Ada Adams' }));
    const panel = await screen.findByTestId('grade-r1');
    expect(panel).toHaveTextContent('Answer: the sun heats the water · Key: evaporation');
    expect(panel).toHaveTextContent('0.00 / 2.00 points');
    const form = within(panel).getByRole('form', { name: 'Grade Q1 of Ada Adams' });
    await user.type(within(form).getByLabelText('Feedback for the student (optional)'), 'Yes: that is evaporation.');
    await user.click(within(form).getByRole('button', { name: 'Mark right' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Saved');
    expect(bodies[0]).toEqual({ earnedPoints: 2, feedback: 'Yes: that is evaporation.' });
    await waitFor(() =>
      expect(screen.getByTestId('grade-r1')).toHaveTextContent('Score now: 2.00 / 2.00 points (100%)'),
    );

    // Part points typed in.
    const points = within(form).getByLabelText('Points (of 2.00)');
    await user.clear(points);
    await user.type(points, '1.5');
    await user.click(within(form).getByRole('button', { name: 'Save mark' }));
    await waitFor(() => expect(bodies[1]).toEqual({ earnedPoints: 1.5, feedback: 'Yes: that is evaporation.' }));

    // Out of range: said at once, nothing sent.
    await user.clear(points);
    await user.type(points, '3');
    await user.click(within(form).getByRole('button', { name: 'Save mark' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Points must be from 0 to 2.00');
    expect(bodies).toHaveLength(2);

    const overall = within(panel).getByRole('form', { name: 'Feedback on the whole result' });
    await user.type(within(overall).getByLabelText('Feedback on the whole result'), 'Good reasoning.');
    await user.click(within(overall).getByRole('button', { name: 'Save feedback' }));
    expect(await within(overall).findByRole('status')).toHaveTextContent('Saved');
    expect(bodies[2]).toEqual({ feedback: 'Good reasoning.' });
  });

  it('when answers wait for review, then the To Review list shows them and marks one in place', async () => {
    const items: ReviewItem[] = [
      {
        resultId: 'r1',
        studentId: 's1',
        student: { firstName: 'Ada', lastName: 'Adams' },
        submittedAt: '2026-03-05T10:00:00.000Z',
        questionId: 'q1',
        position: 1,
        questionText: 'What turns water into vapour?',
        correctAnswer: 'evaporation',
        acceptedAnswers: ['vaporisation'],
        points: '2.00',
        answer: 'the sun heats the water',
      },
    ];
    let waiting = items;
    const patched = vi.fn();
    const page = {
      ...PAGE,
      results: PAGE.results.map((r) => ({ ...r, answers: r.answers.map((a) => ({ ...a, pending: true })) })),
    };
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, page),
      'GET /api/assessments/a1/to-review': () => jsonResponse(200, waiting),
      'PATCH /api/results/r1/responses/q1': (init) => {
        patched(JSON.parse(String(init?.body)));
        waiting = [];
        return jsonResponse(200, regraded('0.00', null));
      },
    });
    const { user } = renderPage();
    const card = await screen.findByRole('region', { name: 'To Review (1)' });
    // The student's answers say it waits (analytics keeps `pending` from the events).
    await user.click(screen.getByRole('button', { name: 'Show answers of Ada Adams' }));
    expect(within(document.getElementById('answers-r1')!).getByText('Awaiting review')).toBeInTheDocument();
    const [item] = within(card).getAllByTestId('to-review-item');
    expect(item).toHaveTextContent('Ada Adams · Q1. What turns water into vapour?');
    expect(item).toHaveTextContent('Answer: the sun heats the water · Key: evaporation (also: vaporisation)');
    await user.click(within(item!).getByRole('button', { name: 'Mark wrong' }));
    await waitFor(() => expect(patched).toHaveBeenCalledWith({ earnedPoints: 0, feedback: '' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /To Review/ })).not.toBeInTheDocument());
  });
});
