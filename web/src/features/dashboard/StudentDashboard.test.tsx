import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STUDENT, stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import type { StudentResult } from '../student';
import { StudentDashboard } from './StudentDashboard';

const ENROLMENT = {
  id: 'm1',
  classId: 'c1',
  class: { name: 'Biology', period: '2', subject: 'Science', teacherName: 'Ada Lovelace' },
};

function result(
  id: string,
  title: string,
  score: number,
  performanceLevel: StudentResult['performanceLevel'],
  raised: Pick<StudentResult, 'originalLevel' | 'raisedBy' | 'raisedAttempt'> = {
    originalLevel: performanceLevel,
    raisedBy: null,
    raisedAttempt: null,
  },
) {
  return {
    id,
    assessmentId: `a-${id}`,
    studentId: 's1',
    classId: 'c1',
    totalPoints: '4',
    earnedPoints: '3',
    isSubmitted: true as const,
    student: { firstName: 'Sam', lastName: 'Lee' },
    score,
    percentage: score.toFixed(2),
    performanceLevel,
    ...raised,
    attempt: 1,
    maxAttempts: 1,
    counted: true,
    countedAttempt: 'latest' as const,
    correctAnswers: 3,
    incorrectAnswers: 1,
    totalQuestions: 4,
    feedback: null,
    pendingReview: 0,
    regradedAt: null,
    className: 'Biology',
    submittedAt: '2026-03-05T10:00:00.000Z',
    assessment: { title, description: '' },
  } satisfies StudentResult;
}

function renderDashboard(results: StudentResult[], returning?: boolean) {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, { ...STUDENT, returning }),
    'GET /api/student/classes': () => jsonResponse(200, [ENROLMENT]),
    'GET /api/student/available-assessments': () => jsonResponse(200, []),
    'GET /api/student/results': () => jsonResponse(200, results),
  });
  return renderWithProviders(<StudentDashboard />);
}

const card = async (title: string) => screen.findByRole('article', { name: `Result: ${title}` });

describe('StudentDashboard', () => {
  it('when the student has just signed up, then the heading says Welcome, not Welcome back', async () => {
    renderDashboard([], false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Sam!' })).toBeInTheDocument();
    expect(screen.queryByText(/Welcome back/)).not.toBeInTheDocument();
  });

  it('when the student had signed in before, then the heading says Welcome back', async () => {
    renderDashboard([], true);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Sam!' })).toBeInTheDocument();
  });

  it("when a result is 85% at standard, then its card says At Standard, the server's level, not the 80/70 band", async () => {
    renderDashboard([result('r1', 'Cells', 85, 'at')]);
    const cells = await card('Cells');
    expect(within(cells).getByTestId('performance-badge')).toHaveTextContent('At Standard');
    expect(within(cells).getByText('85%')).toBeInTheDocument();
    expect(within(cells).getByRole('link', { name: 'Challenge Work' })).toHaveAttribute(
      'href',
      '/support/a-r1/enrichment',
    );
    // The stat card still counts scores of 80 or more.
    expect(screen.getByTestId('stat-Above Standard')).toHaveTextContent('1');
  });

  it('when a student has two attempts, then each card says which attempt it is and whether it counts', async () => {
    renderDashboard([
      { ...result('r1', 'Cells', 90, 'above'), attempt: 1, maxAttempts: 2, counted: true, countedAttempt: 'best' },
      {
        ...result('r2', 'Cells again', 40, 'below'),
        attempt: 2,
        maxAttempts: 2,
        counted: false,
        countedAttempt: 'best',
      },
    ]);
    expect(await card('Cells')).toHaveTextContent('Attempt 1 of 2 · this attempt counts');
    expect(await card('Cells again')).toHaveTextContent('Attempt 2 of 2 · does not count (your best attempt counts)');
    // Practice follows the counted attempt: only its card offers practice.
    expect(within(await card('Cells')).getByRole('link', { name: 'Practice from This Result' })).toHaveAttribute(
      'href',
      '/support-content/r1',
    );
    const other = await card('Cells again');
    expect(within(other).queryByRole('link', { name: 'Practice from This Result' })).not.toBeInTheDocument();
    expect(within(other).queryByRole('link', { name: 'Extra Help Materials' })).not.toBeInTheDocument();
    expect(other).toHaveTextContent('Practice follows the attempt that counts');
  });

  it("when a result is shown, then it leads to the practice written from that result's answers", async () => {
    renderDashboard([result('r1', 'Cells', 40, 'below')]);
    const cells = await card('Cells');
    expect(within(cells).getByRole('link', { name: 'Practice from This Result' })).toHaveAttribute(
      'href',
      '/support-content/r1',
    );
  });

  it('when support practice raised a low result to at, then the card says At Standard and still offers extra help', async () => {
    renderDashboard([
      result('r1', 'Cells', 40, 'at', { originalLevel: 'below', raisedBy: 'practice', raisedAttempt: 2 }),
      result('r2', 'Plants', 72, 'below'),
    ]);
    const cells = await card('Cells');
    expect(within(cells).getByTestId('performance-badge')).toHaveTextContent('At Standard');
    // The original score stays, and the card says what raised the level (docs/adr/005).
    expect(within(cells).getByText('40%')).toBeInTheDocument();
    expect(within(cells).getByTestId('raised-note')).toHaveTextContent('raised to At Standard by practice');
    expect(within(await card('Plants')).queryByTestId('raised-note')).toBeNull();
    expect(within(cells).getByRole('link', { name: 'Extra Help Materials' })).toBeInTheDocument();
    // 72% was 'At Standard' in the old 80/70 band; its level is below.
    expect(within(await card('Plants')).getByTestId('performance-badge')).toHaveTextContent('Below Standard');
    expect(screen.getByTestId('stat-Above Standard')).toHaveTextContent('0');
    expect(screen.getByTestId('stat-Average Score')).toHaveTextContent('56%');
  });

  it('when a score shows as 80% but is 79.6, then the card says Below Standard, offers extra help and is not counted above', async () => {
    renderDashboard([result('r1', 'Cells', 79.6, 'below'), result('r2', 'Plants', 93, 'above')]);
    const cells = await card('Cells');
    expect(within(cells).getByText('80%')).toBeInTheDocument();
    expect(within(cells).getByTestId('performance-badge')).toHaveTextContent('Below Standard');
    expect(within(cells).getByRole('link', { name: 'Extra Help Materials' })).toBeInTheDocument();
    expect(within(await card('Plants')).getByTestId('performance-badge')).toHaveTextContent('Above Standard');
    expect(screen.getByTestId('stat-Assessments Taken')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-Above Standard')).toHaveTextContent('1');
  });
});
