// Scoring a submission on the server: points per question, an answer is right when it
// equals the correct answer ignoring case and surrounding spaces (a short answer also after the
// normalisation below, or any of its accepted alternatives); percentage = earned / total × 100;
// level below under 80, at from 80, above from 90. Points are summed in hundredths so that the
// thresholds are compared exactly (no 79.99999 from float sums).

export type PerformanceLevel = 'below' | 'at' | 'above';
/** What can raise a result's level after submission: only support practice (docs/adr/005). */
export const RAISED_BY = ['practice'] as const;
export type RaisedBy = (typeof RAISED_BY)[number];

export const AT_STANDARD = 80;
export const ABOVE_STANDARD = 90;
/** Practice mastery: a support completion at this score (percent) raises below to at. */
export const MASTERY = 80;

export interface KeyedQuestion {
  correctAnswer: string;
  /** multiple_choice | short_answer | true_false; absent is compared like a chosen option. */
  questionType?: string;
  acceptedAnswers?: readonly string[];
}

export interface ScoredQuestion extends KeyedQuestion {
  id: string;
  points: number;
}

export interface AnswerOutcome {
  questionId: string;
  answer: string;
  /** Full points earned. */
  correct: boolean;
  /** Waiting for the teacher's review (0 points until then). */
  pending: boolean;
  earnedPoints: number;
}

export interface Score {
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  level: PerformanceLevel;
  correctAnswers: number;
  incorrectAnswers: number;
  totalQuestions: number;
  /** Answers waiting for the teacher's review. */
  pendingReview: number;
  answers: AnswerOutcome[];
}

/**
 * One answer as it is marked: the question's points, the points it earned (a teacher may give any
 * part), and whether it waits for review (then it earns nothing yet).
 */
export interface Mark {
  questionId: string;
  answer: string;
  points: number;
  earnedPoints: number;
  pending: boolean;
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

// A '.', ',', '/' or ':' between digits (3.5, 1/2, 10:30) and a minus before a number are part of
// it: dropping them would make 3.5 equal 35. Marked with private-use characters meanwhile.
const IN_NUMBER = /(?<=\p{N})[.,/:](?=\p{N})|(?<![\p{L}\p{N}])[-\u2212](?=\p{N})/gu;
const KEPT = new Map([...'.,/:-'].map((c, i) => [c, String.fromCharCode(0xe000 + i)]));
const RESTORED = new Map([...KEPT].map(([c, mark]) => [mark, c]));
const APOSTROPHES = /['\u2019\u02bc]/gu;

/**
 * The words of a short answer as they are compared: Unicode NFKC, case-folded, inner
 * apostrophes dropped (don't = dont), other punctuation a word break, blanks collapsed.
 */
function shortAnswerWords(answer: string): string[] {
  const folded = answer.normalize('NFKC').toUpperCase().toLowerCase();
  return folded
    .replace(IN_NUMBER, (c) => KEPT.get(c === '\u2212' ? '-' : c)!)
    .replace(APOSTROPHES, '')
    .replace(/\p{P}/gu, ' ')
    .replace(/[\ue000-\ue004]/gu, (mark) => RESTORED.get(mark)!)
    .split(/\s+/u)
    .filter((w) => w !== '');
}

/** A short answer in the form two answers are compared in (plural endings aside). */
export function normalizeShortAnswer(answer: string): string {
  return shortAnswerWords(answer).join(' ');
}

const LETTERS = /^\p{L}+$/u;
/** Equal, or one is the other with a plural s/es, on a word of 4 or more letters (chloroplasts). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length < 4 || !LETTERS.test(long) || !long.startsWith(short)) return false;
  const ending = long.slice(short.length);
  return ending === 's' || ending === 'es';
}

/** A short answer against its key: the same words, each equal or differing by a plural ending. */
export function shortAnswerMatches(answer: string, key: string): boolean {
  const given = shortAnswerWords(answer);
  const expected = shortAnswerWords(key);
  return given.length > 0 && given.length === expected.length && given.every((w, i) => sameWord(w, expected[i]!));
}

/** Right or wrong as scoring marks it: chosen options as they are, short answers normalised. */
export function answerIsCorrect(answer: string | undefined, q: KeyedQuestion): boolean {
  if (answer === undefined) return false;
  if (q.questionType !== 'short_answer') return isCorrect(answer, q.correctAnswer);
  return [q.correctAnswer, ...(q.acceptedAnswers ?? [])].some((key) => shortAnswerMatches(answer, key));
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

/**
 * Whether an answer waits for the teacher instead of being marked at once (the assessment's
 * reviewShortAnswers): a non-blank short answer that matches neither the key nor an accepted answer.
 */
export function needsReview(answer: string | undefined, q: KeyedQuestion): boolean {
  return q.questionType === 'short_answer' && (answer ?? '').trim() !== '' && !answerIsCorrect(answer, q);
}

/** The mark scoring gives an answer at submission. */
export function markAnswer(
  q: ScoredQuestion,
  answer: string | undefined,
  { reviewShortAnswers = false }: { reviewShortAnswers?: boolean } = {},
): Mark {
  const pending = reviewShortAnswers && needsReview(answer, q);
  const correct = !pending && answerIsCorrect(answer, q);
  return { questionId: q.id, answer: answer ?? '', points: q.points, earnedPoints: correct ? q.points : 0, pending };
}

/**
 * The one rule from marks to a score: earned and total points (in hundredths), the percentage and
 * its level. An answer is correct with its full points; one waiting for review earns nothing yet
 * and is neither correct nor incorrect (the score is then provisional: docs/architecture.md,
 * "Grading by hand").
 */
export function scoreMarks(marks: readonly Mark[]): Score {
  let earned = 0;
  let total = 0;
  let correctAnswers = 0;
  let pendingReview = 0;
  const outcomes: AnswerOutcome[] = [];
  for (const m of marks) {
    const points = hundredths(m.points);
    const got = m.pending ? 0 : Math.min(points, Math.max(0, hundredths(m.earnedPoints)));
    const correct = !m.pending && points > 0 && got === points;
    total += points;
    earned += got;
    if (correct) correctAnswers++;
    if (m.pending) pendingReview++;
    outcomes.push({ questionId: m.questionId, answer: m.answer, correct, pending: m.pending, earnedPoints: got / 100 });
  }
  const percentage = total > 0 ? Math.round((earned * 10_000) / total) / 100 : 0;
  return {
    earnedPoints: earned / 100,
    totalPoints: total / 100,
    percentage,
    level: levelOfFraction(earned, total),
    correctAnswers,
    incorrectAnswers: marks.length - correctAnswers - pendingReview,
    totalQuestions: marks.length,
    pendingReview,
    answers: outcomes,
  };
}

/** Scores the stored answers (by question id) against the questions; unanswered is wrong. */
export function scoreSubmission(
  questions: ScoredQuestion[],
  answers: ReadonlyMap<string, string>,
  options: { reviewShortAnswers?: boolean } = {},
): Score {
  return scoreMarks(questions.map((q) => markAnswer(q, answers.get(q.id), options)));
}

/**
 * The result's level after its score changed (a teacher's regrade): the score's own level, unless
 * support practice raised the result (docs/adr/005): a raise is kept as a floor, so practice at
 * mastery still counts when a regrade leaves the score below (and a higher score simply wins).
 */
export function levelAfterRegrade(scoreLevel: PerformanceLevel, raisedBy: RaisedBy | null): PerformanceLevel {
  if (raisedBy !== 'practice') return scoreLevel;
  return levelAfterPractice(scoreLevel, 'support', MASTERY) ?? scoreLevel;
}

/** Numeric strings as the spec's result fields carry them (two decimals, e.g. "85.00"). */
export function numericString(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}

/**
 * Support practice at mastery raises below to at; nothing ever lowers a level. The result keeps the
 * level of its score as originalLevel and records raisedBy 'practice' (docs/adr/005).
 */
export function levelAfterPractice(
  current: PerformanceLevel,
  type: string,
  scorePercent: number,
): PerformanceLevel | undefined {
  if (type !== 'support' || scorePercent < MASTERY || current !== 'below') return undefined;
  return 'at';
}
