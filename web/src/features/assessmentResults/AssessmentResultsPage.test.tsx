import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import type { Assessment } from '../../api/generated/endpoints';
import type { AssessmentResults } from '../results';
import { AssessmentResultsPage } from './AssessmentResultsPage';

/** A chart's bars as their tooltips say them ('label: value'), left to right. */
const barsOf = (chart: HTMLElement) =>
  within(chart)
    .getAllByTestId('chart-bar')
    .map((bar) => bar.querySelector('title')?.textContent);

const RANGES = ['0–9', '10–19', '20–29', '30–39', '40–49', '50–59', '60–69', '70–79', '80–89', '90–100'];

const RESULTS: AssessmentResults = {
  assessment: {
    id: 'a1',
    title: 'Fractions Quiz',
    topic: 'Fractions',
    classId: 'c1',
    className: 'Algebra',
    questionCount: 2,
  },
  summary: { submitted: 2, classSize: 3, averageScore: 72.5, aboveStandard: 1, atStandard: 0, belowStandard: 1 },
  classes: [{ classId: 'c1', className: 'Algebra', classSize: 3, submitted: 2, averageScore: 73 }],
  results: [
    {
      id: 'r2',
      studentId: 's2',
      classId: 'c1',
      className: 'Algebra',
      student: { firstName: 'Bob', lastName: 'Brown' },
      percentage: 52.6,
      earnedPoints: 1,
      totalPoints: 2,
      performanceLevel: 'below',
      originalLevel: 'below',
      raisedBy: null,
      raisedAttempt: null,
      attempt: 1,
      submittedAt: '2024-03-05T10:00:00.000Z',
      practice: [{ type: 'support', attempts: 2, bestScore: 85.4 }],
      answers: [
        { questionId: 'q1', answer: '2/6', correct: false, pending: false },
        { questionId: 'q2', answer: 'True', correct: true, pending: false },
      ],
    },
    {
      id: 'r1',
      studentId: 's1',
      classId: 'c1',
      className: 'Algebra',
      student: { firstName: 'Ada', lastName: 'Adams' },
      percentage: 92.4,
      earnedPoints: 2,
      totalPoints: 2,
      performanceLevel: 'above',
      originalLevel: 'above',
      raisedBy: null,
      raisedAttempt: null,
      attempt: 1,
      submittedAt: '2024-03-05T09:00:00.000Z',
      practice: [],
      answers: [
        { questionId: 'q1', answer: '3/4', correct: true, pending: false },
        { questionId: 'q2', answer: 'True', correct: true, pending: false },
      ],
    },
  ],
  questions: [
    {
      id: 'q1',
      position: 1,
      questionText: 'What is 1/2 + 1/4?',
      questionType: 'multiple_choice',
      options: ['1/4', '3/4', '2/6', '1'],
      correctAnswer: '3/4',
      points: 1,
      answered: 2,
      correctCount: 1,
      awaitingReview: 0,
      shareCorrect: 0.5,
      discrimination: 0.456,
      optionCounts: [
        { option: '1/4', count: 0, shownTo: 2, correct: false },
        { option: '3/4', count: 1, shownTo: 2, correct: true },
        { option: '2/6', count: 1, shownTo: 2, correct: false },
        { option: '1', count: 0, shownTo: 2, correct: false },
      ],
    },
    {
      id: 'q2',
      position: 2,
      questionText: 'One half equals 0.5.',
      questionType: 'true_false',
      options: ['True', 'False'],
      correctAnswer: 'True',
      points: 1,
      answered: 2,
      correctCount: 2,
      awaitingReview: 0,
      shareCorrect: 1,
      discrimination: null,
      optionCounts: [
        { option: 'True', count: 2, shownTo: 2, correct: true },
        { option: 'False', count: 0, shownTo: 2, correct: false },
      ],
    },
  ],
  distribution: RANGES.map((range) => ({ range, count: range === '50–59' || range === '90–100' ? 1 : 0 })),
  standards: [
    {
      identifier: 'id-nf-1',
      code: '3.NF.A.1',
      uri: 'https://case.example/3.NF.A.1',
      questionCount: 2,
      students: 2,
      averagePercentage: 72.5,
      levels: { below: 1, at: 0, above: 1 },
    },
    {
      identifier: 'id-nf-3',
      code: '3.NF.A.3',
      uri: '',
      questionCount: 1,
      students: 2,
      averagePercentage: 50,
      levels: { below: 1, at: 1, above: 0 },
    },
  ],
};

function renderPage(id = 'a1') {
  return renderWithProviders(
    <Routes>
      <Route path="/assessment-results/:id" element={<AssessmentResultsPage />} />
    </Routes>,
    { route: `/assessment-results/${id}` },
  );
}

describe('AssessmentResultsPage', () => {
  it('when the assessment is given to two classes, then each class shows its figures, each result its class, and the table can show one class', async () => {
    const [bob, ada] = RESULTS.results as [AssessmentResults['results'][number], AssessmentResults['results'][number]];
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, {
          ...RESULTS,
          classes: [
            { classId: 'c1', className: 'Algebra', classSize: 2, submitted: 1, averageScore: 53 },
            { classId: 'c3', className: 'Algebra P3', classSize: 1, submitted: 1, averageScore: 92 },
          ],
          results: [bob, { ...ada, classId: 'c3', className: 'Algebra P3' }],
        }),
    });
    const { user } = renderPage();
    const byClass = await screen.findByRole('region', { name: 'By Class' });
    const rows = within(byClass)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(['Algebra1 / 253%', 'Algebra P31 / 192%']);
    const table = screen.getByRole('region', { name: 'Student Results' });
    expect(within(table).getByRole('columnheader', { name: 'Class' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Ada Adams/ })).toHaveTextContent('Algebra P3');

    await user.selectOptions(within(byClass).getByLabelText('Show students of'), 'Algebra P3');
    expect(within(table).queryByRole('row', { name: /Bob Brown/ })).not.toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Ada Adams/ })).toBeInTheDocument();
  });

  it('when the teacher grants a retake, then it is asked for after a confirmation, and each row says which attempt counts', async () => {
    const [bob] = RESULTS.results as [AssessmentResults['results'][number]];
    const retake = vi.fn(() =>
      jsonResponse(200, { resultId: bob.id, assessmentId: 'a1', studentId: bob.studentId, attempt: 2 }),
    );
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, { ...RESULTS, results: [{ ...bob, attempt: 3 }] }),
      [`POST /api/results/${bob.id}/retake`]: retake,
    });
    const { user } = renderPage();
    const table = await screen.findByRole('region', { name: 'Student Results' });
    const row = within(table).getByRole('row', { name: /Bob Brown/ });
    expect(row).toHaveTextContent('Attempt 3 (counts)');
    await user.click(within(row).getByRole('button', { name: 'Retake for Bob Brown' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant a retake?' });
    expect(retake).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Grant Retake' }));
    await vi.waitFor(() => expect(retake).toHaveBeenCalledTimes(1));
    expect(await screen.findByText(/can take it again \(attempt 2\)/)).toBeInTheDocument();
  });

  it('when the teacher cancels a reopen, then nothing is sent', async () => {
    const [bob] = RESULTS.results as [AssessmentResults['results'][number]];
    const reopen = vi.fn(() => jsonResponse(200, {}));
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, { ...RESULTS, results: [bob] }),
      [`POST /api/results/${bob.id}/reopen`]: reopen,
    });
    const { user } = renderPage();
    const table = await screen.findByRole('region', { name: 'Student Results' });
    await user.click(within(table).getByRole('button', { name: "Reopen Bob Brown's attempt" }));
    const dialog = await screen.findByRole('dialog', { name: 'Reopen this attempt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(reopen).not.toHaveBeenCalled();
  });

  it('when the assessment is given to one class only, then there is no class breakdown nor class column', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();
    const table = await screen.findByRole('region', { name: 'Student Results' });
    expect(screen.queryByRole('region', { name: 'By Class' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Class' })).not.toBeInTheDocument();
  });

  it('when results load, then the summary and each student’s rounded score and level show', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();

    expect(await screen.findByRole('heading', { name: 'Fractions Quiz' })).toBeInTheDocument();
    expect(screen.getByText(/Algebra/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Assessments' })).toHaveAttribute('href', '/assessments');
    expect(screen.getByTestId('stat-Submitted')).toHaveTextContent('2 / 3');
    expect(screen.getByTestId('stat-Average Score')).toHaveTextContent('73%');
    expect(screen.getByTestId('stat-Above Standard')).toHaveTextContent('1');
    expect(screen.getByTestId('stat-At Standard')).toHaveTextContent('0');
    expect(screen.getByTestId('stat-Below Standard')).toHaveTextContent('1');

    const students = screen.getByRole('region', { name: 'Student Results' });
    const rows = within(students).getAllByRole('row').slice(1);
    // Sorted by last name: Adams before Brown.
    expect(rows[0]).toHaveTextContent('Ada Adams');
    expect(rows[0]).toHaveTextContent('92%');
    expect(within(rows[0]!).getByText('Above Standard')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Bob Brown');
    expect(rows[1]).toHaveTextContent('53%');
    expect(within(rows[1]!).getByText('Below Standard')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Support: 2 attempts, best 85%');
    // Each result leads to the practice written from it, on the teachers' path.
    expect(within(rows[1]!).getByRole('link', { name: 'Open practice of Bob Brown' })).toHaveAttribute(
      'href',
      '/interactive-support/r2',
    );
  });

  it('when a student’s answers are expanded, then each question shows the answer and whether it was correct', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    const { user } = renderPage();

    const toggle = await screen.findByRole('button', { name: 'Show answers of Bob Brown' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide answers of Bob Brown' })).toHaveAttribute('aria-expanded', 'true');

    const answers = within(document.getElementById('answers-r2')!).getAllByRole('listitem');
    expect(answers).toHaveLength(2);
    expect(answers[0]).toHaveTextContent('Q1. What is 1/2 + 1/4?');
    expect(answers[0]).toHaveTextContent('Answer: 2/6');
    expect(answers[0]).toHaveTextContent('✗ Incorrect');
    expect(answers[0]).toHaveTextContent('(correct: 3/4)');
    expect(answers[1]).toHaveTextContent('Answer: True');
    expect(answers[1]).toHaveTextContent('✓ Correct');
    expect(screen.queryByText('Answer: 3/4')).not.toBeInTheDocument();
  });

  it('when results load, then item statistics show share correct, discrimination and option counts with the correct option marked', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();

    const q1 = await screen.findByTestId('item-1');
    const cells = within(q1).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('50%');
    expect(cells[3]).toHaveTextContent('0.46');
    const options = within(cells[4]!).getAllByRole('listitem');
    expect(options.map((o) => o.textContent)).toEqual([
      '1/4: 0 (0%)',
      '3/4: 1 (50%)✓ Correct answer',
      '2/6: 1 (50%)',
      '1: 0 (0%)',
    ]);

    const q2cells = within(screen.getByTestId('item-2')).getAllByRole('cell');
    expect(q2cells[2]).toHaveTextContent('100%');
    expect(q2cells[3]).toHaveTextContent('—');
  });

  it('when some students had reduced answer choices, then an option shown to fewer than all says how many of those who saw it chose it', async () => {
    const [q1, q2] = RESULTS.questions;
    const optionCounts = [
      { option: '1/4', count: 0, shownTo: 2, correct: false },
      { option: '3/4', count: 2, shownTo: 5, correct: true },
      { option: '2/6', count: 2, shownTo: 5, correct: false },
      { option: '1', count: 1, shownTo: 3, correct: false },
    ];
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, { ...RESULTS, questions: [{ ...q1!, answered: 5, optionCounts }, q2!] }),
    });
    renderPage();
    const cells = within(await screen.findByTestId('item-1')).getAllByRole('cell');
    expect(
      within(cells[4]!)
        .getAllByRole('listitem')
        .map((o) => o.textContent),
    ).toEqual([
      '1/4: 0 (0%) · 0 of 2 who saw it',
      '3/4: 2 (40%)✓ Correct answer',
      '2/6: 2 (40%)',
      '1: 1 (20%) · 1 of 3 who saw it',
    ]);
    // Everyone saw every option of the true/false question: nothing more is said.
    expect(screen.getByTestId('item-2')).not.toHaveTextContent('who saw it');
    // The same figures for a spreadsheet: the item analysis file of this assessment.
    expect(screen.getByRole('link', { name: 'Export item analysis (CSV)' })).toHaveAttribute(
      'href',
      '/api/assessments/a1/item-analysis',
    );
  });

  it('when an answer waits for review, then the item says how many await review next to the share of the marked ones', async () => {
    const [q1, q2] = RESULTS.questions;
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, { ...RESULTS, questions: [{ ...q1!, awaitingReview: 1, shareCorrect: 1 }, q2!] }),
    });
    renderPage();
    const cells = within(await screen.findByTestId('item-1')).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent('100%');
    expect(cells[2]).toHaveTextContent('1 awaiting review');
    expect(screen.queryByTestId('item-2-awaiting')).not.toBeInTheDocument();
  });

  it('when results load, then the charts get the score distribution and the share correct per question', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();

    const distribution = await screen.findByRole('img', { name: /^Score distribution/ });
    const counts = [0, 0, 0, 0, 0, 1, 0, 0, 0, 1];
    expect(barsOf(distribution)).toEqual(RANGES.map((range, i) => `${range}: ${counts[i]}`));
    const difficulty = screen.getByRole('img', { name: /^Item difficulty/ });
    expect(barsOf(difficulty)).toEqual(['Q1: 50%', 'Q2: 100%']);
    // Bar heights follow the values on the 0–100 axis: Q2's bar is twice Q1's.
    const heights = within(difficulty)
      .getAllByTestId('chart-bar')
      .map((bar) => Number(bar.querySelector('rect')?.getAttribute('height')));
    expect(heights[1]).toBeCloseTo(heights[0]! * 2);
    expect(difficulty).toHaveAccessibleName('Item difficulty (share correct). Q1: 50%, Q2: 100%');
  });

  it('when results load, then the Standards card lists each aligned standard with its questions, students, average and students by level in words', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();

    const table = await screen.findByRole('table', { name: 'Standards' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Standard',
      'Aligned questions',
      'Students',
      'Average',
      'Below Standard',
      'At Standard',
      'Above Standard',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['3.NF.A.1', '3.NF.A.3']);
    expect(within(rows[0]!).getByTestId('standard-chip')).toHaveTextContent('3.NF.A.1');
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '2', '73%', '1', '0', '1']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', '2', '50%', '1', '1', '0']);
    expect(screen.queryByTestId('standards-empty')).not.toBeInTheDocument();
  });

  it('when no question of the assessment is aligned to a standard, then the Standards card says so and links to the edit page', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, { ...RESULTS, standards: [] }) });
    renderPage();

    const card = await screen.findByRole('region', { name: 'Standards' });
    expect(within(card).getByTestId('standards-empty')).toHaveTextContent(
      'No question of this assessment is aligned to a standard yet',
    );
    expect(within(card).getByRole('link', { name: 'edit page' })).toHaveAttribute('href', '/assessment-edit/a1');
    expect(within(card).queryByRole('table')).not.toBeInTheDocument();
  });

  it('when questions are aligned but nobody has submitted, then the Standards card says so and lists the standards without figures', async () => {
    const none = { students: 0, averagePercentage: null, levels: { below: 0, at: 0, above: 0 } };
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, {
          ...RESULTS,
          summary: { ...RESULTS.summary, submitted: 0, averageScore: null, aboveStandard: 0, belowStandard: 0 },
          results: [],
          standards: RESULTS.standards.map((s) => ({ ...s, ...none })),
        }),
    });
    renderPage();

    const card = await screen.findByRole('region', { name: 'Standards' });
    expect(within(card).getByTestId('standards-no-submissions')).toHaveTextContent('No submissions yet');
    const rows = within(within(card).getByRole('table')).getAllByRole('row').slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '0', '—', '0', '0', '0']);
  });

  it('when the page is open, then it listens for the class’s live results', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        constructor(url: string) {
          urls.push(url);
        }
        addEventListener() {}
        close() {}
      },
    );
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();
    await screen.findByRole('heading', { name: 'Fractions Quiz' });
    expect(urls).toEqual(['/api/dashboard/live?classId=c1']);
  });

  it('when the assessment is given to several classes, then the page listens to all of them in one stream', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        constructor(url: string) {
          urls.push(url);
        }
        addEventListener() {}
        close() {}
      },
    );
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, {
          ...RESULTS,
          classes: [
            { classId: 'c1', className: 'Algebra', classSize: 2, submitted: 1, averageScore: 53 },
            { classId: 'c3', className: 'Algebra P3', classSize: 1, submitted: 0, averageScore: null },
            { classId: 'c2', className: 'Algebra P2', classSize: 1, submitted: 0, averageScore: null },
          ],
        }),
    });
    renderPage();
    await screen.findByRole('region', { name: 'By Class' });
    expect(urls).toEqual(['/api/dashboard/live?classId=c1,c2,c3']);
  });

  it('when students are taking the assessment, then the live progress panel lists who is in progress with counts, who submitted and who has not started, without answers', async () => {
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS),
      'GET /api/assessments/a1/progress': () =>
        jsonResponse(200, {
          assessmentId: 'a1',
          classId: 'c1',
          questionCount: 8,
          counts: { notStarted: 1, inProgress: 1, submitted: 1 },
          students: [
            {
              studentId: 's1',
              firstName: 'Ada',
              lastName: 'Adams',
              status: 'submitted',
              answered: null,
              startedAt: null,
              lastSavedAt: null,
              submittedAt: '2024-03-05T09:00:00.000Z',
            },
            {
              studentId: 's3',
              firstName: 'Cy',
              lastName: 'Cole',
              status: 'in_progress',
              answered: 4,
              startedAt: '2024-03-05T09:10:00.000Z',
              lastSavedAt: '2024-03-05T09:12:00.000Z',
              submittedAt: null,
            },
            {
              studentId: 's4',
              firstName: 'Di',
              lastName: 'Dunn',
              status: 'not_started',
              answered: null,
              startedAt: null,
              lastSavedAt: null,
              submittedAt: null,
            },
          ],
        }),
    });
    renderPage();
    const panel = await screen.findByRole('region', { name: 'Live Progress' });
    expect(within(panel).getByTestId('progress-counts')).toHaveTextContent(
      '1 in progress · 1 submitted · 1 not started',
    );
    const table = within(panel).getByRole('table', { name: 'Live progress' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Ada Adams', 'Cy Cole', 'Di Dunn']);
    expect(rows[0]).toHaveTextContent(/Submitted.*Submitted at/);
    expect(rows[1]).toHaveTextContent('In progress4 of 8 answered');
    expect(rows[2]).toHaveTextContent('Not started');
    // Nothing of what the in-progress student answered.
    expect(panel).not.toHaveTextContent(/3\/4|2\/6|True|%/);
  });

  it('when the progress cannot be read, then the results page shows without the panel', async () => {
    stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();
    await screen.findByRole('heading', { name: 'Fractions Quiz' });
    expect(screen.queryByRole('region', { name: 'Live Progress' })).not.toBeInTheDocument();
  });

  it('when the assessment does not exist, then "Assessment not found" shows with a link back to /assessments', async () => {
    stubFetch({});
    renderPage('missing');
    expect(await screen.findByRole('heading', { name: 'Assessment not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Assessments' })).toHaveAttribute('href', '/assessments');
  });
});

describe('AssessmentResultsPage: AI recommendations', () => {
  // The assessment as a teacher of a class it is assigned to from another class reads it.
  const ASSIGNED_HERE: Assessment = {
    id: 'a1',
    classId: 'c1',
    title: 'Fractions Quiz',
    description: '',
    topic: 'Fractions',
    standard: '',
    dueDate: null,
    isActive: true,
    isAssigned: true,
    assignedAt: '2024-03-01T10:00:00.000Z',
    status: 'assigned',
    assignedTo: [{ classId: 'c3', className: 'Algebra P3', wholeClass: true, studentIds: [] }],
    createdAt: '2024-03-01T10:00:00.000Z',
    updatedAt: '2024-03-01T10:00:00.000Z',
    commonAssessmentId: null,
    shuffleQuestions: false,
    shuffleOptions: false,
    opensAt: null,
    closesAt: null,
    timeLimitSeconds: null,
    maxAttempts: 1,
    countedAttempt: 'latest',
    reviewShortAnswers: false,
    className: 'Algebra',
    subject: 'Math',
    questionCount: 2,
    responseCount: 1,
    assignedCount: 1,
    contentToAssess: 'Fractions…',
    questionType: 'multiple_choice',
    numberOfQuestions: 2,
    generationStatus: 'ready',
    generationProvider: 'offline',
    generationError: null,
    standards: [],
    canEdit: false,
  };
  const [bob] = RESULTS.results as [AssessmentResults['results'][number]];
  const OWN_CLASS_ONLY = {
    ...RESULTS,
    summary: { ...RESULTS.summary, submitted: 1, classSize: 1 },
    classes: [{ classId: 'c3', className: 'Algebra P3', classSize: 1, submitted: 1, averageScore: 53 }],
    results: [{ ...bob, classId: 'c3', className: 'Algebra P3' }],
  };

  it('when the caller teaches a class it is assigned to from another class, then Support opens the recommendation of /api/assessments/{id}/recommendations/support', async () => {
    const fetchMock = stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, OWN_CLASS_ONLY),
      'GET /api/assessments/a1': () => jsonResponse(200, ASSIGNED_HERE),
      'GET /api/assessments/a1/recommendations/support': () =>
        jsonResponse(200, {
          type: 'support',
          text: 'Support recommendations: Fractions Quiz\nResults so far: 1 submission, average 53%.',
          provider: 'offline',
          generatedAt: '2024-03-06T10:00:00.000Z',
          summary: {
            total: 1,
            below: 1,
            at: 0,
            raised: 0,
            above: 0,
            averagePercent: 53,
            mostMissed: [],
            mostCorrect: [],
          },
        }),
    });
    const { user } = renderPage();
    const buttons = await screen.findByRole('group', { name: 'AI Recommendation' });
    expect(within(buttons).getByRole('button', { name: 'Enrichment' })).toBeInTheDocument();
    await user.click(within(buttons).getByRole('button', { name: 'Support' }));
    const dialog = await screen.findByRole('dialog', { name: /Support Recommendation/ });
    expect(within(dialog).getByText('Fractions Quiz')).toBeInTheDocument();
    expect(await within(dialog).findByText(/Results so far: 1 submission, average 53%/)).toBeInTheDocument();
    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls).toContain('/api/assessments/a1/recommendations/support');
    expect(urls).not.toContain('/api/assessments/a1/recommendations/enrichment');
  });

  it('when the caller teaches a class it is assigned to from another class, then the back link leads to that class, not to their assessments', async () => {
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, OWN_CLASS_ONLY),
      'GET /api/assessments/a1': () => jsonResponse(200, ASSIGNED_HERE),
    });
    renderPage();
    expect(await screen.findByRole('link', { name: '← Back to the class' })).toHaveAttribute('href', '/class/c3');
    expect(screen.queryByRole('link', { name: '← Back to Assessments' })).not.toBeInTheDocument();
  });

  it('when the caller may edit the assessment, then the back link leads to their assessments', async () => {
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, OWN_CLASS_ONLY),
      'GET /api/assessments/a1': () => jsonResponse(200, { ...ASSIGNED_HERE, canEdit: true }),
    });
    renderPage();
    expect(await screen.findByRole('group', { name: 'AI Recommendation' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Assessments' })).toHaveAttribute('href', '/assessments');
  });

  it('when the caller reads its results but not the assessment (an admin: 404), then no recommendation is offered', async () => {
    const fetchMock = stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Fractions Quiz' })).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain('/api/assessments/a1'),
    );
    // The 404 settles: still no buttons.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('group', { name: 'AI Recommendation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Support' })).not.toBeInTheDocument();
  });
});
