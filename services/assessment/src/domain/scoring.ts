// Scoring a submission on the server (spec §4, §9): points per question, an answer is right when it
// equals the correct answer ignoring case and surrounding spaces; percentage = earned / total × 100;
// level below under 80, at from 80, above from 90. Points are summed in hundredths so that the
// thresholds are compared exactly (no 79.99999 from float sums).

export type PerformanceLevel = 'below' | 'at' | 'above';

export const AT_STANDARD = 80;
export const ABOVE_STANDARD = 90;
/** Practice mastery (spec §9): a support completion at this score raises below to at. */
export const MASTERY = 80;

export interface ScoredQuestion {
  id: string;
  correctAnswer: string;
  points: number;
}

export interface AnswerOutcome {
  questionId: string;
  answer: string;
  correct: boolean;
}

export interface Score {
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  level: PerformanceLevel;
  correctAnswers: number;
  incorrectAnswers: number;
  totalQuestions: number;
  answers: AnswerOutcome[];
}

const hundredths = (points: number) => Math.round(points * 100);

export function normalizeAnswer(answer: string): string {
  return answer.trim().toLowerCase();
}

export function isCorrect(answer: string | undefined, correctAnswer: string): boolean {
  if (answer === undefined) return false;
  const given = normalizeAnswer(answer);
  return given !== '' && given === normalizeAnswer(correctAnswer);
}

/** The level of a percentage (exact thresholds: 79.99 below, 80 at, 89.99 at, 90 above). */
export function levelFor(percentage: number): PerformanceLevel {
  if (percentage >= ABOVE_STANDARD) return 'above';
  if (percentage >= AT_STANDARD) return 'at';
  return 'below';
}

function levelOfFraction(earned: number, total: number): PerformanceLevel {
  if (total <= 0) return 'below';
  if (earned * 100 >= ABOVE_STANDARD * total) return 'above';
  if (earned * 100 >= AT_STANDARD * total) return 'at';
  return 'below';
}

/** Scores the stored answers (by question id) against the questions; unanswered is wrong. */
export function scoreSubmission(questions: ScoredQuestion[], answers: ReadonlyMap<string, string>): Score {
  let earned = 0;
  let total = 0;
  let correctAnswers = 0;
  const outcomes: AnswerOutcome[] = [];
  for (const q of questions) {
    const points = hundredths(q.points);
    const answer = answers.get(q.id);
    const correct = isCorrect(answer, q.correctAnswer);
    total += points;
    if (correct) {
      earned += points;
      correctAnswers++;
    }
    outcomes.push({ questionId: q.id, answer: answer ?? '', correct });
  }
  const percentage = total > 0 ? Math.round((earned * 10_000) / total) / 100 : 0;
  return {
    earnedPoints: earned / 100,
    totalPoints: total / 100,
    percentage,
    level: levelOfFraction(earned, total),
    correctAnswers,
    incorrectAnswers: questions.length - correctAnswers,
    totalQuestions: questions.length,
    answers: outcomes,
  };
}

/** Numeric strings as the spec's result fields carry them (two decimals, e.g. "85.00"). */
export function numericString(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}

/** Support practice at mastery raises below to at; nothing ever lowers a level. */
export function levelAfterPractice(
  current: PerformanceLevel,
  type: string,
  scorePercent: number,
): PerformanceLevel | undefined {
  if (type !== 'support' || scorePercent < MASTERY || current !== 'below') return undefined;
  return 'at';
}
