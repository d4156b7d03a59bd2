// The student's result after the teacher graded it by hand: the new score, the feedback on the
// whole result and on each answer, part points, and answers still waiting for review.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/test-utils';
import type { Result } from '../assessments';
import { ResultSummary } from './ResultSummary';

const base = {
  questionType: 'short_answer' as const,
  options: [],
  acceptedAnswers: [],
  points: '2.00',
  shownOptions: null,
};

const RESULT: Result = {
  id: 'r1',
  assessmentId: 'a1',
  studentId: 's1',
  classId: 'c1',
  totalPoints: '6.00',
  earnedPoints: '3.50',
  percentage: '58.33',
  score: 58.33,
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
  totalQuestions: 3,
  feedback: 'Good reasoning: revise the names of the stages.',
  pendingReview: 1,
  regradedAt: '2026-03-06T10:00:00.000Z',
  className: 'Science',
  assessment: { title: 'Water cycle', description: '' },
  student: { firstName: 'Sam', lastName: 'Lee' },
  questions: [
    {
      ...base,
      questionId: 'q1',
      position: 1,
      questionText: 'What turns water into vapour?',
      correctAnswer: 'evaporation',
      answer: 'the sun heats the water',
      correct: true,
      earnedPoints: '2.00',
      pending: false,
      feedback: 'Right: that is evaporation.',
    },
    {
      ...base,
      questionId: 'q2',
      position: 2,
      questionText: 'What forms clouds?',
      correctAnswer: 'condensation',
      answer: 'cooling vapour',
      correct: false,
      earnedPoints: '1.50',
      pending: false,
      feedback: null,
    },
    {
      ...base,
      questionId: 'q3',
      position: 3,
      questionText: 'What falls as rain?',
      correctAnswer: 'precipitation',
      answer: 'water drops',
      correct: false,
      earnedPoints: '0.00',
      pending: true,
      feedback: null,
    },
  ],
};

describe('a result graded by hand, as the student sees it', () => {
  it('when the teacher regraded answers and wrote feedback, then the score, both feedbacks, part points and the wait show', () => {
    renderWithProviders(<ResultSummary result={RESULT} title="Water cycle" />);
    expect(screen.getByTestId('result-score')).toHaveTextContent('58%');
    expect(screen.getByTestId('result-feedback')).toHaveTextContent(
      'Feedback from your teacherGood reasoning: revise the names of the stages.',
    );
    expect(screen.getByTestId('result-pending')).toHaveTextContent('Your teacher will review one answer');
    const items = within(screen.getByRole('region', { name: 'Review Your Answers' })).getAllByRole('listitem');
    expect(within(items[0]!).getByTestId('review-mark')).toHaveTextContent('Correct');
    expect(within(items[0]!).getByTestId('review-points')).toHaveTextContent('2.00 / 2.00 points');
    expect(within(items[0]!).getByTestId('review-feedback')).toHaveTextContent(
      "Teacher's feedback: Right: that is evaporation.",
    );
    expect(within(items[1]!).getByTestId('review-mark')).toHaveTextContent('Partly correct');
    expect(within(items[1]!).getByTestId('review-points')).toHaveTextContent('1.50 / 2.00 points');
    expect(within(items[1]!).queryByTestId('review-feedback')).not.toBeInTheDocument();
    expect(within(items[2]!).getByTestId('review-mark')).toHaveTextContent('Awaiting teacher review');
    expect(within(items[2]!).getByTestId('review-points')).toHaveTextContent('— / 2.00 points');
  });

  it('when nothing was regraded, then no feedback or waiting note shows', () => {
    renderWithProviders(
      <ResultSummary result={{ ...RESULT, feedback: null, pendingReview: 0, questions: [] }} title="Water cycle" />,
    );
    expect(screen.queryByTestId('result-feedback')).not.toBeInTheDocument();
    expect(screen.queryByTestId('result-pending')).not.toBeInTheDocument();
  });

  it('when the attempt does not count, then it offers no practice and says practice follows the counted one', () => {
    renderWithProviders(
      <ResultSummary
        result={{ ...RESULT, attempt: 1, maxAttempts: 2, counted: false, countedAttempt: 'latest' }}
        title="Water cycle"
      />,
    );
    expect(screen.getByTestId('result-attempt')).toHaveTextContent('does not count');
    expect(screen.queryByRole('link', { name: 'Extra Help Materials' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Practice from This Result' })).not.toBeInTheDocument();
    expect(screen.getByText(/Practice follows the attempt that counts/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument();
  });

  it('when the attempt counts, then it offers the practice of its score and of its answers', () => {
    renderWithProviders(<ResultSummary result={RESULT} title="Water cycle" />);
    expect(screen.getByRole('link', { name: 'Extra Help Materials' })).toHaveAttribute('href', '/support/a1/support');
    expect(screen.getByRole('link', { name: 'Practice from This Result' })).toHaveAttribute(
      'href',
      '/support-content/r1',
    );
  });
});
