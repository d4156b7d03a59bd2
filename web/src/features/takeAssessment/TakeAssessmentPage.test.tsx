import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STUDENT, TEACHER, stubFetch, type Route as FetchRoute } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import type { Result } from '../assessments';
import { AnswerStore } from './answerStore';
import { AUTOSAVE_DELAY_MS } from './autosaver';
import { OFFLINE_TEXT } from './SaveStatusLine';
import { TakeAssessmentPage, TryAsStudentPage } from './TakeAssessmentPage';

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
    studentId: 's1',
    classId: 'c1',
    className: 'Science 6',
    assessment: { title: 'Capitals', description: '' },
    student: { firstName: 'Sam', lastName: 'Student' },
    totalPoints: '2.00',
    earnedPoints: '1.00',
    percentage: '50.00',
    feedback: null,
    pendingReview: 0,
    regradedAt: null,
    score: 50,
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
    correctAnswers: 1,
    incorrectAnswers: 1,
    totalQuestions: 2,
    questions: [
      {
        ...QUESTIONS[0]!,
        questionId: 'q1',
        questionType: 'multiple_choice',
        correctAnswer: 'Paris',
        acceptedAnswers: [],
        answer: 'Paris',
        correct: true,
        earnedPoints: '1.00',
        pending: false,
        shownOptions: null,
        feedback: null,
      },
      {
        ...QUESTIONS[1]!,
        questionId: 'q2',
        questionType: 'short_answer',
        correctAnswer: '4',
        acceptedAnswers: [],
        answer: null,
        correct: false,
        earnedPoints: '0.00',
        pending: false,
        shownOptions: null,
        feedback: null,
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

interface Saved {
  questionId: string;
  answer: string;
  clientSeq: number;
  at: number;
}

/** The student's routes; every save is recorded (with when it arrived) and accepted unless `save` says otherwise. */
function studentRoutes(overrides: Record<string, FetchRoute> = {}, save?: FetchRoute) {
  const saves: Saved[] = [];
  const fetchMock = stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, me),
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
    'GET /api/assessments/a1/responses': () => jsonResponse(200, []),
    'POST /api/responses': async (init) => {
      const body = JSON.parse(String(init?.body)) as Omit<Saved, 'at'>;
      saves.push({ ...body, at: Date.now() });
      if (save) return save(init);
      return jsonResponse(200, { id: 'x', assessmentId: 'a1', updatedAt: '2026-03-05T10:00:00.000Z', ...body });
    },
    'POST /api/results': () => jsonResponse(201, result({})),
    ...overrides,
  });
  return { saves, fetchMock };
}

const status = () => screen.getByRole('status');
const heading = (name: RegExp | string) => screen.getByRole('heading', { level: 2, name });

// Each test is another student, so that nothing a test kept in this browser (IndexedDB writes may
// land after it ended) shows up in the next.
let students = 0;
let me = STUDENT;
beforeEach(() => {
  students += 1;
  me = { ...STUDENT, id: `student-${students}` };
});

describe('TakeAssessmentPage result', () => {
  it('when the student submits, then the score, the level and each question with their answer and the key show', async () => {
    const { fetchMock } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Your answer'), '4');
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit now' }));

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
    // The result's heading takes the focus, so that it is read out.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Geography check' })).toHaveFocus());
  });

  it('when a submitted assessment of 85% at standard is opened again, then it says At Standard and shows the review', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, me),
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

describe('TakeAssessmentPage submit confirm', () => {
  it('when questions are unanswered, then Submit lists them, and Go to question N opens that question with its heading focused', async () => {
    const { fetchMock } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Question 2, not answered' }));
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));

    const dialog = await screen.findByRole('dialog', { name: 'Some questions have no answer' });
    expect(dialog).toHaveTextContent('You have not answered 2 of 2 questions.');
    const items = within(within(dialog).getByRole('list', { name: 'Unanswered questions' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Question 1: Capital of France?Go to question 1',
      'Question 2: 2 + 2 = ?Go to question 2',
    ]);
    expect(within(dialog).getByRole('button', { name: 'Submit anyway' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: 'Go to question 1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    await waitFor(() => expect(heading('Question 1: Capital of France?')).toHaveFocus());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/results')).toBe(false);
  });

  it('when Keep Working is chosen, then nothing is submitted and the focus is back on Submit', async () => {
    const { fetchMock } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Your answer'), '4');
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Submit your answers?' });
    expect(dialog).toHaveTextContent('You answered all 2 questions.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Working' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit Assessment' })).toHaveFocus());
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/results')).toBe(false);
  });

  it('when a teacher has closed the assessment while it is open, then submitting shows that it is closed', async () => {
    studentRoutes({
      'POST /api/results': () =>
        jsonResponse(409, { message: 'This assessment is not active.', code: 'assessment_inactive' }),
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Question 2, not answered' }));
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit anyway' }));
    expect(await screen.findByRole('heading', { name: 'Assessment Closed' })).toHaveFocus();
    expect(screen.getByText(/can no longer be answered or submitted/)).toBeInTheDocument();
  });
});

describe('TakeAssessmentPage time limit', () => {
  it('when the attempt is timed, then the time left counts down from the server’s figure and, at zero, what was saved is submitted', async () => {
    const { saves, fetchMock } = studentRoutes({
      'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, timeLimitSeconds: 600, secondsLeft: 2 }),
    });
    const { user } = renderPage();
    expect(await screen.findByRole('timer', { name: 'Time left' })).toHaveTextContent('Time left 0:02');
    await user.click(screen.getByLabelText('Paris'));
    await waitFor(() => expect(saves.map((x) => x.answer)).toContain('Paris'), { timeout: 5_000 });
    await waitFor(
      () =>
        expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/results' && init?.method === 'POST')).toBe(
          true,
        ),
      { timeout: 5_000 },
    );
    expect(await screen.findByTestId('result-score')).toBeInTheDocument();
  });

  it('when the attempt has not started yet, then the limit shows and the assessment is asked again once the questions are in', async () => {
    let reads = 0;
    studentRoutes({
      'GET /api/assessments/a1': () =>
        jsonResponse(200, { ...ASSESSMENT, timeLimitSeconds: 900, secondsLeft: reads++ === 0 ? null : 899 }),
    });
    renderPage();
    expect(await screen.findByRole('timer', { name: 'Time left' })).toHaveTextContent(/Time left 14:5\d/);
    expect(reads).toBe(2);
  });

  it('when the teacher set a time limit after the questions were read, then a refused save reads them again (the attempt starts), is sent again, and the time left shows', async () => {
    let limited = false;
    let questionReads = 0;
    const { saves } = studentRoutes(
      {
        'GET /api/assessments/a1': () =>
          jsonResponse(200, limited ? { ...ASSESSMENT, timeLimitSeconds: 600, secondsLeft: 598 } : ASSESSMENT),
        'GET /api/assessments/a1/questions': () => {
          questionReads += 1;
          return jsonResponse(200, QUESTIONS);
        },
      },
      (init) => {
        const body = JSON.parse(String(init?.body)) as Saved;
        // Refused until the questions were read again after the limit was set.
        if (questionReads < 2)
          return jsonResponse(409, {
            message: 'Open the assessment first: its time limit starts when you do.',
            code: 'attempt_not_started',
          });
        return jsonResponse(200, { id: 'x', assessmentId: 'a1', updatedAt: '2026-03-05T10:00:00.000Z', ...body });
      },
    );
    const { user } = renderPage();
    await screen.findByRole('heading', { level: 2, name: /Capital of France/ });
    limited = true;
    await user.click(screen.getByLabelText('Paris'));
    await waitFor(() => expect(saves.filter((x) => x.answer === 'Paris')).toHaveLength(2), { timeout: 5_000 });
    expect(questionReads).toBe(2);
    expect(await screen.findByRole('timer', { name: 'Time left' })).toHaveTextContent(/Time left 9:5\d/);
    expect(screen.queryByText('Failed to save response')).not.toBeInTheDocument();
  });

  it('when the time is up on the server, then the page says so', async () => {
    studentRoutes({
      'GET /api/assessments/a1': () => jsonResponse(409, { message: 'Your time is up.', code: 'time_up' }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Time Is Up' })).toBeInTheDocument();
    expect(screen.getByText(/Any answers you saved are submitted for you/)).toBeInTheDocument();
  });
});

describe('TakeAssessmentPage close time', () => {
  it('when the assessment has a close time, then the page shows it beside the question count', async () => {
    const closesAt = '2026-12-01T15:00:00.000Z';
    studentRoutes({ 'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, closesAt }) });
    renderPage();
    const when = new Date(closesAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(await screen.findByTestId('closes-at')).toHaveTextContent(`Closes ${when}`);
  });

  it('when the close time passes while the student answers, then the form gives way to a sentence saying what happens to the saved answers', async () => {
    studentRoutes({}, () => jsonResponse(409, { message: 'This assessment has closed.', code: 'assessment_closed' }));
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    expect(await screen.findByRole('heading', { name: 'Assessment Closed' })).toHaveFocus();
    expect(screen.getByText(/Any answers you saved before it closed are submitted for you/)).toBeInTheDocument();
  });
});

describe('TakeAssessmentPage navigator and focus', () => {
  it('when the student answers and moves, then the navigator shows answered and current, and the new question heading has the focus', async () => {
    studentRoutes();
    const { user } = renderPage();
    const nav = await screen.findByRole('navigation', { name: 'Questions' });
    const first = within(nav).getByRole('button', { name: 'Question 1, not answered' });
    expect(first).toHaveAttribute('aria-current', 'step');
    expect(within(nav).getByRole('button', { name: 'Question 2, not answered' })).not.toHaveAttribute('aria-current');

    await user.click(screen.getByLabelText('Paris'));
    expect(within(nav).getByRole('button', { name: 'Question 1, answered' })).toHaveAttribute('aria-current', 'step');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(heading('Question 2: 2 + 2 = ?')).toHaveFocus();
    expect(within(nav).getByRole('button', { name: 'Question 2, not answered' })).toHaveAttribute(
      'aria-current',
      'step',
    );

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(heading('Question 1: Capital of France?')).toHaveFocus();
    expect(screen.getByLabelText('Paris')).toBeChecked();

    await user.click(within(nav).getByRole('button', { name: 'Question 2, not answered' }));
    expect(heading('Question 2: 2 + 2 = ?')).toHaveFocus();
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
  });

  it('when the page opens, then the assessment, its questions and the saved answers are asked for together', async () => {
    let releaseAssessment: () => void = () => undefined;
    const assessmentAnswered = new Promise<void>((resolve) => (releaseAssessment = resolve));
    const { fetchMock } = studentRoutes({
      'GET /api/assessments/a1': async () => {
        await assessmentAnswered;
        return jsonResponse(200, ASSESSMENT);
      },
    });
    renderPage();
    const asked = () => fetchMock.mock.calls.map(([url]) => String(url));
    // While the assessment has not answered yet, the other two are already on their way.
    await waitFor(() =>
      expect(asked()).toEqual(
        expect.arrayContaining([
          '/api/assessments/a1',
          '/api/assessments/a1/questions',
          '/api/assessments/a1/responses',
        ]),
      ),
    );
    releaseAssessment();
    expect(await screen.findByText('Question 1 of 2')).toBeInTheDocument();
  });

  it('when the answers were saved from another device, then they are filled in', async () => {
    studentRoutes({
      'GET /api/assessments/a1/responses': () =>
        jsonResponse(200, [
          {
            id: 'x',
            assessmentId: 'a1',
            questionId: 'q2',
            answer: '4',
            clientSeq: 5,
            updatedAt: '2026-03-05T10:00:00Z',
          },
        ]),
    });
    const { user } = renderPage();
    expect(await screen.findByRole('button', { name: 'Question 2, answered' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Question 2, answered' }));
    expect(screen.getByLabelText('Your answer')).toHaveValue('4');
  });

  it('when a teacher opens the page, then it is a preview: nothing is saved and Submit is disabled', async () => {
    const { saves } = studentRoutes({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    const { user } = renderPage();
    expect(await screen.findByText(/Preview: answers are not saved/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Question 2, not answered' }));
    expect(screen.getByRole('button', { name: 'Submit Assessment' })).toBeDisabled();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(saves).toEqual([]);
  });
});

describe('TakeAssessmentPage autosave', () => {
  it('when the student types, then the answer is saved once, about 800 ms after the last key, and the line says Saved', async () => {
    const { saves } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Question 2, not answered' }));
    expect(status()).toHaveTextContent(/^$/);
    await user.type(screen.getByLabelText('Your answer'), 'four');
    const lastKey = Date.now();
    expect(status()).toHaveTextContent('Saving…');
    expect(saves).toEqual([]);
    await waitFor(() => expect(status()).toHaveTextContent(/^Saved$/));
    expect(saves.map((s) => [s.questionId, s.answer])).toEqual([['q2', 'four']]);
    expect(saves[0]!.at - lastKey).toBeGreaterThanOrEqual(AUTOSAVE_DELAY_MS - 50);
    expect(status()).toHaveAttribute('aria-live', 'polite');
  });

  it('when the student moves on right after answering, then the answer is saved at once', async () => {
    const { saves } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    const answeredAt = Date.now();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]!.at - answeredAt).toBeLessThan(AUTOSAVE_DELAY_MS);
    expect(saves[0]).toMatchObject({ questionId: 'q1', answer: 'Paris' });
  });

  it('when offline, then nothing is sent, the line says the answers are kept on this device, and they go out when back online', async () => {
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const { saves } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Your answer'), '4');
    await waitFor(() => expect(status()).toHaveTextContent(OFFLINE_TEXT));
    await new Promise((r) => setTimeout(r, AUTOSAVE_DELAY_MS + 200));
    expect(saves).toEqual([]);
    // Kept in the journal: a reload would find them.
    const kept = await AnswerStore.open(me.id, 'a1');
    expect(kept.pending().map((p) => p.answer)).toEqual(['Paris', '4']);

    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(status()).toHaveTextContent(/^Saved$/));
    expect(saves.map((s) => s.answer)).toEqual(['Paris', '4']);
  });

  it('when Save Progress is pressed offline, then it says the answers are kept on this device (no alarm)', async () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const { saves } = studentRoutes();
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    await user.click(screen.getByRole('button', { name: 'Save Progress' }));
    expect(await screen.findByText('Saved on This Device')).toBeInTheDocument();
    expect(screen.queryByText('Failed to save response')).not.toBeInTheDocument();
    expect(saves).toEqual([]);
  });

  it('when sending the unsent answers fails for a passing reason, then they are sent again without the student doing anything', async () => {
    // An answer kept on this device from an earlier visit, never sent.
    const kept = await AnswerStore.open(me.id, 'a1');
    kept.setAnswer('q2', '4');
    await kept.persisted();
    // The server is restarting on the first try.
    let tries = 0;
    const { saves } = studentRoutes({}, (init) => {
      tries += 1;
      if (tries === 1) return jsonResponse(503, { message: 'Unavailable', code: 'unavailable' });
      return jsonResponse(200, { id: 'x', updatedAt: '2026-03-05T10:00:00.000Z', ...JSON.parse(String(init?.body)) });
    });
    renderPage();
    expect(await screen.findByText(/^Not sent yet — your answers are kept on this device/)).toBeInTheDocument();
    await waitFor(() => expect(saves).toHaveLength(2), { timeout: 5_000 });
    await waitFor(() => expect(status()).toHaveTextContent(/^Saved$/));
  }, 10_000);

  it('when the teacher closes the assessment while the student answers, then the form gives way to a clear sentence', async () => {
    studentRoutes({}, () =>
      jsonResponse(409, { message: 'This assessment is not active.', code: 'assessment_inactive' }),
    );
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    expect(await screen.findByRole('heading', { name: 'Assessment Closed' }, { timeout: 3_000 })).toHaveFocus();
    expect(screen.queryByLabelText('Paris')).not.toBeInTheDocument();
  });
});

describe('TakeAssessmentPage submitted elsewhere', () => {
  it('when the student already submitted on another device, then the next save shows that result instead of the form', async () => {
    let submitted = false;
    studentRoutes(
      {
        'GET /api/assessments/a1': () =>
          jsonResponse(200, submitted ? { ...ASSESSMENT, submitted: true, resultId: 'r1' } : ASSESSMENT),
        'GET /api/results/r1': () => jsonResponse(200, result({})),
      },
      () => {
        submitted = true;
        return jsonResponse(409, { message: 'You have already submitted this assessment', code: 'already_submitted' });
      },
    );
    const { user } = renderPage();
    await user.click(await screen.findByLabelText('Paris'));
    expect(await screen.findByTestId('result-score')).toHaveTextContent('50%');
    expect(screen.queryByLabelText('Paris')).not.toBeInTheDocument();
  });
});

describe('TakeAssessmentPage closed', () => {
  it('when a closed assessment is opened, then a sentence says so instead of the questions', async () => {
    studentRoutes({
      'GET /api/assessments/a1': () =>
        jsonResponse(409, { message: 'This assessment is not active.', code: 'assessment_inactive' }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Assessment Closed' })).toBeInTheDocument();
    expect(screen.getByText(/Your teacher has closed this assessment/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('when the assessment is not open yet, then the page says so and shows no question', async () => {
    studentRoutes({
      'GET /api/assessments/a1': () =>
        jsonResponse(409, { message: 'This assessment is not open yet.', code: 'assessment_not_open' }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Not Open Yet' })).toBeInTheDocument();
    expect(screen.getByText(/Come back at the time your teacher set/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('when the assessment comes back inactive, then the student sees it closed', async () => {
    studentRoutes({ 'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSESSMENT, isActive: false }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Assessment Closed' })).toBeInTheDocument();
  });
});

describe('TryAsStudentPage (a teacher trying the assessment)', () => {
  function renderTry() {
    return renderWithProviders(
      <Routes>
        <Route path="/assessment-try/:id" element={<TryAsStudentPage />} />
        <Route path="/assessment-preview/:id" element={<p>Assessment preview page</p>} />
      </Routes>,
      { route: '/assessment-try/a1' },
    );
  }

  function tryRoutes() {
    const scored: unknown[] = [];
    const fetchMock = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/assessments/a1/student-preview': () =>
        jsonResponse(200, {
          assessment: { id: 'a1', title: 'Geography check', description: '', dueDate: null, questionCount: 2 },
          questions: QUESTIONS,
        }),
      'POST /api/assessments/a1/student-preview/score': (init) => {
        scored.push(JSON.parse(String(init?.body)));
        const r = result({});
        return jsonResponse(200, {
          assessmentId: 'a1',
          totalPoints: r.totalPoints,
          earnedPoints: r.earnedPoints,
          percentage: r.percentage,
          score: r.score,
          performanceLevel: r.performanceLevel,
          correctAnswers: r.correctAnswers,
          incorrectAnswers: r.incorrectAnswers,
          totalQuestions: r.totalQuestions,
          questions: r.questions,
        });
      },
    });
    return { scored, fetchMock };
  }

  it('when the teacher answers, navigates and submits, then the real taking page scores it through the preview call and nothing is saved', async () => {
    const { scored, fetchMock } = tryRoutes();
    const { user } = renderTry();
    const banner = await screen.findByRole('note');
    expect(banner).toHaveTextContent(
      'Student preview. This is the page your students see. Nothing you do here is saved',
    );
    expect(within(banner).getByRole('link', { name: 'Back to assessment' })).toHaveAttribute(
      'href',
      '/assessment-preview/a1',
    );
    expect(screen.getByRole('heading', { name: /Capital of France/ })).toBeInTheDocument();
    expect(screen.queryByText(/Preview: answers are not saved/)).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Paris'));
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByLabelText('Paris')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(await screen.findByRole('button', { name: 'Submit anyway' }));
    expect(await screen.findByTestId('result-score')).toHaveTextContent('50%');
    expect(scored).toEqual([{ answers: [{ questionId: 'q1', answer: 'Paris' }] }]);
    // Only the preview calls: no save, no submit, no saved answers read.
    const called = fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    expect(called.filter((c) => /responses|\/api\/results/.test(c))).toEqual([]);
    // Try again starts over with nothing answered.
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('button', { name: 'Question 1, not answered' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toBeInTheDocument();
  });

  it('when the teacher presses Save Progress in the try, then it says nothing is saved and sends nothing', async () => {
    const { fetchMock } = tryRoutes();
    const { user } = renderTry();
    await user.click(await screen.findByLabelText('Lyon'));
    await user.click(screen.getByRole('button', { name: 'Save Progress' }));
    expect(await screen.findByText('Nothing is saved in a student preview.')).toBeInTheDocument();
    const called = fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    expect(called.filter((c) => c.startsWith('POST'))).toEqual([]);
  });

  it('when the assessment is not the teacher’s, then Assessment Not Found shows', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    renderTry();
    expect(await screen.findByRole('heading', { name: 'Assessment Not Found' })).toBeInTheDocument();
  });
});
