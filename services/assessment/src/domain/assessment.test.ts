import { describe, expect, it } from 'vitest';
import { resultDetailView, reviewOf, withShownOptions, type QuestionRow, type ResultRow } from './assessment.ts';
import { countedFacts } from './assessments.use-case.ts';
import { reducedOptions } from './accommodations.ts';
import { scoreSubmission } from './scoring.ts';

const question = (id: string, position: number, correctAnswer: string, points = 1): QuestionRow => ({
  id,
  assessmentId: 'a1',
  position,
  questionText: `Question ${id}`,
  questionType: 'short_answer',
  options: [],
  correctAnswer,
  acceptedAnswers: [],
  points,
});

describe('result review', () => {
  const questions = [question('q1', 1, 'Blue', 2.5), question('q2', 2, '4'), question('q3', 3, 'Paris')];
  const answers = new Map([
    ['q1', ' blue '],
    ['q2', '5'],
  ]);

  it('when questions are reviewed, then each carries the answer (null when none) and the mark scoring gives it', () => {
    const review = reviewOf(questions, answers);
    expect(review.map((q) => [q.questionId, q.answer, q.correct])).toEqual([
      ['q1', ' blue ', true],
      ['q2', '5', false],
      ['q3', null, false],
    ]);
    const score = scoreSubmission(questions, answers);
    expect(review.map((q) => q.correct)).toEqual(score.answers.map((a) => a.correct));
  });

  it('when a result is shown with its review, then points are numeric strings as in the question view', () => {
    const view = resultDetailView(
      {
        id: 'r1',
        assessmentId: 'a1',
        studentId: 's1',
        classId: 'c1',
        tenantId: 't1',
        totalPoints: 4.5,
        earnedPoints: 2.5,
        percentage: 55.56,
        performanceLevel: 'at',
        originalLevel: 'below',
        raisedBy: 'practice',
        raisedAttempt: 2,
        correctAnswers: 1,
        incorrectAnswers: 2,
        totalQuestions: 3,
        submittedAt: new Date('2026-01-01T00:00:00Z'),
        attempt: 1,
        superseded: false,
        counted: true,
        maxAttempts: 1,
        countedAttempt: 'latest',
        feedback: null,
        pendingReview: 0,
        regradedAt: null,
        title: 'T',
        description: '',
        className: 'C',
        teacherId: 'te1',
        firstName: null,
        lastName: null,
      } satisfies ResultRow,
      reviewOf(questions, answers),
    );
    expect(view.questions[0]).toMatchObject({ points: '2.50', correctAnswer: 'Blue', answer: ' blue ' });
    expect(view.percentage).toBe('55.56');
    // A level raised by practice goes out with the score's own level and what raised it.
    expect(view).toMatchObject({
      performanceLevel: 'at',
      originalLevel: 'below',
      raisedBy: 'practice',
      raisedAttempt: 2,
    });
  });
});

describe('options shown (reduced answer choices)', () => {
  const mc: QuestionRow = {
    ...question('m1', 1, 'B'),
    questionType: 'multiple_choice',
    options: ['A', 'B', 'C', 'D'],
  };
  const sa = question('s1', 2, 'Paris');
  const answers = new Map([['m1', 'B']]);

  it('when a student with reduced choices is reviewed, then a multiple-choice question keeps the options their questions route shows; others none', () => {
    const review = reviewOf([mc, sa], answers, { reducedFor: { studentId: 'st1', reducedChoices: 2 } });
    expect(review[0]!.shownOptions).toEqual(reducedOptions(mc, 'st1', 2));
    expect(review[0]!.shownOptions).toHaveLength(2);
    expect(review[0]!.shownOptions).toContain('B');
    expect(review[1]).not.toHaveProperty('shownOptions');
    // No reduced choices: nothing kept (all shown).
    expect(reviewOf([mc], answers, { reducedFor: { studentId: 'st1', reducedChoices: 0 } })[0]).not.toHaveProperty(
      'shownOptions',
    );
    const events = withShownOptions(scoreSubmission([mc, sa], answers).answers, review);
    expect(events.map((a) => a.shownOptions)).toEqual([review[0]!.shownOptions, []]);
  });

  it('when a stored result counts again, then its events carry the options kept in its review (none: empty)', () => {
    const review = reviewOf([mc, sa], answers, { reducedFor: { studentId: 'st1', reducedChoices: 1 } });
    const facts = countedFacts({
      id: 'r1',
      assessmentId: 'a1',
      tenantId: 't1',
      classId: 'c1',
      studentId: 'st1',
      earnedPoints: 1,
      totalPoints: 2,
      percentage: 50,
      level: 'below',
      submittedAt: new Date(),
      attempt: 1,
      questions: review,
    });
    expect(facts.answers.map((a) => a.shownOptions)).toEqual([reducedOptions(mc, 'st1', 1), []]);
  });
});
