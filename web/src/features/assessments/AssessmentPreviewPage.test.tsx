import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../api/generated/endpoints';
import { TEACHER, stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { AssessmentPreviewPage } from './AssessmentPreviewPage';

const TRY_ASSESSMENT: Assessment = {
  id: 'a1',
  classId: 'c1',
  title: 'Water Cycle',
  description: '',
  topic: 'Water',
  standard: '',
  dueDate: null,
  isActive: true,
  isAssigned: true,
  assignedAt: '2026-03-01T10:00:00.000Z',
  status: 'assigned',
  assignedTo: [{ classId: 'c1', className: 'Earth Science', wholeClass: true, studentIds: [] }],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
  commonAssessmentId: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  opensAt: null,
  closesAt: null,
  timeLimitSeconds: null,
  maxAttempts: 1,
  countedAttempt: 'latest',
  reviewShortAnswers: false,
  className: 'Earth Science',
  subject: 'Science',
  questionCount: 1,
  responseCount: 0,
  assignedCount: 3,
  contentToAssess: 'The water cycle…',
  questionType: 'multiple_choice',
  numberOfQuestions: 1,
  generationStatus: 'ready',
  generationProvider: 'offline',
  generationError: null,
  standards: [],
  canEdit: true,
};

const QUESTION = {
  id: 'q1',
  assessmentId: 'a1',
  questionText: 'What turns water into vapour?',
  questionType: 'multiple_choice',
  options: ['Evaporation', 'Runoff', 'Condensation', 'Precipitation'],
  correctAnswer: 'Evaporation',
  points: '1.00',
  position: 1,
};

function renderTryPreview(assessment: Assessment, questions: unknown[]) {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, TEACHER),
    'GET /api/assessments/a1': () => jsonResponse(200, assessment),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, questions),
  });
  return renderWithProviders(
    <Routes>
      <Route path="/assessment-preview/:id" element={<AssessmentPreviewPage />} />
      <Route path="/assessment-try/:id" element={<p>Taking page as a student</p>} />
    </Routes>,
    { route: '/assessment-preview/a1' },
  );
}

describe('AssessmentPreviewPage: Try as a Student', () => {
  it('when the assessment has questions, then Try as a Student opens the taking page as a student sees it', async () => {
    const { user } = renderTryPreview(TRY_ASSESSMENT, [QUESTION]);
    const link = await screen.findByRole('link', { name: 'Try as a Student' });
    expect(link).toHaveAttribute('href', '/assessment-try/a1');
    await user.click(link);
    expect(await screen.findByText('Taking page as a student')).toBeInTheDocument();
  });

  it('when generation left some questions out, then the teacher is told why above the questions', async () => {
    const note = '1 generated question was left out: it named a standard you did not choose (CCSS.X.9).';
    renderTryPreview({ ...TRY_ASSESSMENT, generationError: note }, [QUESTION]);
    expect(await screen.findByTestId('generation-note')).toHaveTextContent(note);
    expect(screen.queryByTestId('generation-failed')).not.toBeInTheDocument();
  });

  it('when the assessment is aligned to standards, then their codes show with their statements', async () => {
    const standard = {
      identifier: 'item-6-rp-a-1',
      code: '6.RP.A.1',
      uri: 'https://case.example.org/item-6-rp-a-1',
      statement: 'Understand the concept of a ratio.',
      frameworkId: null,
    };
    renderTryPreview({ ...TRY_ASSESSMENT, standards: [standard] }, [QUESTION]);
    const list = await screen.findByRole('list', { name: 'Standards of this assessment' });
    expect(list).toHaveTextContent('6.RP.A.1');
    expect(list).toHaveTextContent('Understand the concept of a ratio.');
  });

  it("when it is a class's copy of a district common assessment, then it says so and only its details are offered for editing", async () => {
    renderTryPreview({ ...TRY_ASSESSMENT, commonAssessmentId: '55555555-5555-4555-8555-555555555555' }, [QUESTION]);
    expect(await screen.findByText('District assessment')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Details' })).toHaveAttribute('href', '/assessment-edit/a1');
    expect(screen.queryByRole('link', { name: 'Edit Questions' })).not.toBeInTheDocument();
  });

  it('when the assessment has no questions yet, then there is nothing to try', async () => {
    renderTryPreview({ ...TRY_ASSESSMENT, questionCount: 0 }, []);
    expect(await screen.findByRole('heading', { name: 'Water Cycle' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try as a Student' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export as QTI' })).not.toBeInTheDocument();
  });

  it('when the assessment has questions, then Export as QTI downloads its QTI 3.0 package from the API', async () => {
    renderTryPreview(TRY_ASSESSMENT, [QUESTION]);
    const link = await screen.findByRole('link', { name: 'Export as QTI' });
    expect(link).toHaveAttribute('href', '/api/assessments/a1/qti');
    expect(link).toHaveAttribute('download');
  });
});

describe('AssessmentPreviewPage: who may change it', () => {
  it('when the caller teaches a class it is only assigned to (canEdit false), then no edit, assign, copy, export or activate control shows, and a note says why', async () => {
    const { user } = renderTryPreview({ ...TRY_ASSESSMENT, canEdit: false }, [QUESTION]);
    const note = await screen.findByTestId('read-only-note');
    expect(note).toHaveTextContent('Read only: this assessment belongs to the class Earth Science');
    for (const name of ['Edit Questions', 'Edit Details', 'Export as QTI', 'View in Class'])
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    for (const name of [/^Assign/, /^Copy to a class/])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    // What they may do stays: preview (without the activate toggle) and try it.
    expect(screen.getByRole('link', { name: 'Try as a Student' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: /^(Deactivate|Activate)$/ })).not.toBeInTheDocument();
  });

  it('when the caller teaches its own class (canEdit true), then the controls show and no note', async () => {
    const { user } = renderTryPreview(TRY_ASSESSMENT, [QUESTION]);
    expect(await screen.findByRole('link', { name: 'Edit Questions' })).toHaveAttribute('href', '/assessment-edit/a1');
    expect(screen.getByRole('button', { name: 'Assign to classes or students…' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy to a class…' })).toBeInTheDocument();
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
  });
});

const DRAFT_ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Cells Quiz',
  description: '',
  topic: 'Cells',
  standard: '',
  dueDate: null,
  isActive: true,
  createdAt: '2026-03-05T10:00:00.000Z',
  className: 'Biology 7',
  questionCount: 0,
  status: 'draft',
  isAssigned: false,
  assignedTo: [],
  generationStatus: 'ready',
  generationProvider: 'text',
  canEdit: true,
};

function HistoryState() {
  return <p data-testid="history-state">{JSON.stringify(useLocation().state)}</p>;
}

function renderPreview(state?: unknown) {
  stubFetch({
    'GET /api/assessments/a1': () => jsonResponse(200, DRAFT_ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, []),
  });
  return renderWithProviders(
    <Routes>
      <Route
        path="/assessment-preview/:id"
        element={
          <>
            <AssessmentPreviewPage />
            <HistoryState />
          </>
        }
      />
    </Routes>,
    { route: { pathname: '/assessment-preview/a1', state } },
  );
}

describe('AssessmentPreviewPage', () => {
  it('when opened right after creating the assessment, then the creation banner shows once and the history entry forgets it', async () => {
    renderPreview({ justCreated: true });
    expect(await screen.findByRole('heading', { name: 'Cells Quiz' })).toBeInTheDocument();
    expect(screen.getByTestId('created-banner')).toHaveTextContent(
      'Successfully Created with Questions Built from Your Text!',
    );
    // A reload reads the cleared entry: no banner then.
    await waitFor(() => expect(screen.getByTestId('history-state')).toHaveTextContent('null'));
    expect(screen.getByTestId('created-banner')).toBeInTheDocument();
  });

  it('when opened later (a link, a reload), then there is no creation banner', async () => {
    renderPreview();
    expect(await screen.findByRole('heading', { name: 'Cells Quiz' })).toBeInTheDocument();
    expect(screen.queryByTestId('created-banner')).not.toBeInTheDocument();
    expect(screen.queryByText(/Successfully Created/)).not.toBeInTheDocument();
    // One status word for a draft: no "Active" beside "Draft".
    expect(screen.getByTestId('lifecycle-status')).toHaveTextContent('Draft');
    expect(screen.queryByText('Active')).not.toBeInTheDocument();
  });
});

describe('AssessmentPreviewPage: AI recommendations', () => {
  const recommendation = (type: 'support' | 'enrichment', total: number) => ({
    type,
    text: `${type === 'support' ? 'Support' : 'Enrichment'} recommendations: Water Cycle\nResults so far: ${total} submission${total === 1 ? '' : 's'}, average 50%.`,
    provider: 'offline',
    generatedAt: '2026-03-02T10:00:00.000Z',
    summary: { total, below: 1, at: 0, raised: 0, above: 0, averagePercent: 50, mostMissed: [], mostCorrect: [] },
  });

  it('when the caller teaches a class it is only assigned to (canEdit false), then Support and Enrichment open the recommendations the API writes for them, and Results opens its results', async () => {
    const fetchMock = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/assessments/a1': () => jsonResponse(200, { ...TRY_ASSESSMENT, canEdit: false }),
      'GET /api/assessments/a1/questions': () => jsonResponse(200, [QUESTION]),
      'GET /api/assessments/a1/recommendations/support': () => jsonResponse(200, recommendation('support', 1)),
      'GET /api/assessments/a1/recommendations/enrichment': () => jsonResponse(200, recommendation('enrichment', 1)),
    });
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/assessment-preview/:id" element={<AssessmentPreviewPage />} />
      </Routes>,
      { route: '/assessment-preview/a1' },
    );
    await screen.findByTestId('read-only-note');
    expect(screen.getByRole('link', { name: 'Results' })).toHaveAttribute('href', '/assessment-results/a1');
    const buttons = screen.getByRole('group', { name: 'AI Recommendation' });

    await user.click(within(buttons).getByRole('button', { name: 'Support' }));
    const support = await screen.findByRole('dialog', { name: /Support Recommendation/ });
    expect(await within(support).findByText(/Results so far: 1 submission,/)).toBeInTheDocument();
    expect(within(support).getByRole('button', { name: 'Download' })).toBeEnabled();
    const urls = () => fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls()).toContain('/api/assessments/a1/recommendations/support');
    expect(urls()).not.toContain('/api/assessments/a1/recommendations/enrichment');
    // The footer's Close (the header's × is named Close too).
    await user.click(within(support).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(buttons).getByRole('button', { name: 'Enrichment' }));
    const enrichment = await screen.findByRole('dialog', { name: /Enrichment Recommendation/ });
    expect(await within(enrichment).findByText(/^Enrichment recommendations: Water Cycle/)).toBeInTheDocument();
    expect(urls()).toContain('/api/assessments/a1/recommendations/enrichment');
  });

  it('when the caller teaches its own class, then the buttons are there too', async () => {
    renderTryPreview(TRY_ASSESSMENT, [QUESTION]);
    const buttons = await screen.findByRole('group', { name: 'AI Recommendation' });
    expect(within(buttons).getByRole('button', { name: 'Support' })).toBeInTheDocument();
    expect(within(buttons).getByRole('button', { name: 'Enrichment' })).toBeInTheDocument();
  });
});
