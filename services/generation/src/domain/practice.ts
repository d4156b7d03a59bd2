// Practice material: support (below standard: review and recognition) and enrichment (at or above:
// recall and connections), per assessment or per result (from the student's wrong answers), and
// its scoring on the server (mastery 80, spec §4 and §9).
import { createHash } from 'node:crypto';
import { generateOfflineQuestions } from './offline-generator.ts';
import { normalizeText, type QuestionType } from './question.ts';
import { analyseText, endWithStop } from './text-analysis.ts';

export const PRACTICE_TYPES = ['support', 'enrichment'] as const;
export type PracticeType = (typeof PRACTICE_TYPES)[number];
export const MASTERY_PERCENT = 80;
export const PRACTICE_QUESTIONS = 5;

/** A question of the assessment as this service keeps it (from QuestionsChanged). */
export interface AssessmentQuestion {
  id: string;
  text: string;
  type: string;
  options: string[];
  correctAnswer: string;
  points: number;
}

/** What practice and recommendations are made from: the lesson, never anyone's name. */
export interface LessonFacts {
  title: string;
  topic: string;
  content: string;
  questions: AssessmentQuestion[];
}

export interface PracticeQuestion {
  id: string;
  question: string;
  type: QuestionType;
  options: string[];
  correctAnswer: string;
}

export interface PracticeSet {
  reading: string;
  questions: PracticeQuestion[];
}

const PLANS: Record<PracticeType, QuestionType[]> = {
  support: ['multiple_choice', 'true_false', 'multiple_choice', 'true_false', 'short_answer'],
  enrichment: ['short_answer', 'multiple_choice', 'true_false', 'short_answer', 'multiple_choice'],
};

/**
 * A digest of everything practice and guidance are written from: when the teacher edits the
 * details or the questions, the basis changes and cached material is written again.
 */
export function lessonBasis(l: LessonFacts): string {
  const questions = l.questions.map((q) => [q.id, q.text, q.type, q.options, q.correctAnswer, q.points]);
  return createHash('sha256')
    .update(JSON.stringify([l.title, l.topic, l.content, questions]))
    .digest('base64url');
}

/** A practice question as a student sees it before scoring: the answer key stays on the server. */
export type PublicPracticeQuestion = Omit<PracticeQuestion, 'correctAnswer'>;

export const withoutKey = ({ id, question, type, options }: PracticeQuestion): PublicPracticeQuestion => ({
  id,
  question,
  type,
  options,
});

/**
 * The version a student answers: a digest of the material as the student sees it, so it changes
 * whenever the reading or a question does (even when a model writes the same lesson again
 * differently). SECURITY: never a digest of the keys: with 2 to 4 options per question a student
 * could try every combination against it offline and recover them.
 */
export function materialVersion(m: PracticeSet): string {
  return createHash('sha256')
    .update(JSON.stringify([m.reading, m.questions.map(withoutKey)]))
    .digest('base64url');
}

export const lessonName = (l: Pick<LessonFacts, 'title' | 'topic'>) =>
  l.topic.trim() || l.title.trim() || 'this lesson';

/** A question as a plain statement of its answer ("The answer to … is …"), for study text. */
export function statementOf(q: AssessmentQuestion): string {
  const text = q.text.replace(/^\s*(true or false|fill in the blank)\s*[:?-]\s*/i, '').trim();
  if (q.type === 'true_false') {
    return normalizeText(q.correctAnswer) === 'true'
      ? endWithStop(text)
      : `It is not true that ${endWithStop(text.replace(/^./, (c) => c.toLowerCase()))}`;
  }
  if (text.includes('_____')) return endWithStop(text.replace('_____', q.correctAnswer));
  return `${endWithStop(text.replace(/\?$/, ''))} Answer: ${q.correctAnswer}.`;
}

/** The teacher's text, or (when the questions were written by hand) statements from the questions. */
export function studyText(l: LessonFacts): string {
  const content = l.content.trim();
  if (content) return content;
  const fromQuestions = l.questions.map(statementOf).join('\n');
  return fromQuestions || lessonName(l);
}

function keyIdeas(text: string, max: number): string[] {
  const a = analyseText(text);
  return a.sentences.slice(0, max).map((s) => endWithStop(s.text));
}

function topTerms(text: string, max: number): string[] {
  const a = analyseText(text);
  return a.ranked
    .filter((k) => a.terms.get(k)!.kind === 'word')
    .slice(0, max)
    .map((k) => a.terms.get(k)!.text);
}

function toPractice(prefix: string, qs: ReturnType<typeof generateOfflineQuestions>): PracticeQuestion[] {
  return qs.map((q, i) => ({
    id: `${prefix}${i + 1}`,
    question: q.questionText,
    type: q.questionType,
    options: q.options,
    correctAnswer: q.correctAnswer,
  }));
}

/** Offline practice per assessment and type: a reading from the lesson and 5 new questions. */
export function buildPracticeMaterial(l: LessonFacts, type: PracticeType): PracticeSet {
  const text = studyText(l);
  const name = lessonName(l);
  const exclude = l.questions.map((q) => q.text);
  const questions = toPractice(
    type === 'support' ? 's' : 'e',
    generateOfflineQuestions(
      { content: text, questionType: 'mixed', count: PRACTICE_QUESTIONS, topic: l.topic },
      { salt: type, exclude, plan: PLANS[type] },
    ),
  );
  if (type === 'support') {
    const review = l.questions.slice(0, 5).map((q) => `• ${statementOf(q)}`);
    const reading = [
      `Let's review ${name}.`,
      '',
      'Key ideas:',
      ...keyIdeas(text, 6).map((s) => `• ${s}`),
      ...(review.length ? ['', 'From the assessment:', ...review] : []),
      '',
      `Read each idea slowly, then answer the practice questions. Score ${MASTERY_PERCENT}% or more to show mastery.`,
    ].join('\n');
    return { reading, questions };
  }
  const terms = topTerms(text, 6);
  const links = terms
    .slice(1)
    .map((t, i) => `• How does ${terms[i]} relate to ${t}?`)
    .slice(0, 4);
  const reading = [
    `Going further with ${name}.`,
    '',
    ...keyIdeas(text, 4).map((s) => `• ${s}`),
    ...(links.length ? ['', 'Connections to think about:', ...links] : []),
    '',
    `Challenge: explain ${terms[0] ?? name} in your own words and give an example that is not in the lesson. Then answer the questions below; ${MASTERY_PERCENT}% or more is mastery.`,
  ].join('\n');
  return { reading, questions };
}

export interface AnswerOutcome {
  questionId: string;
  answer: string;
  correct: boolean;
}

/** Result-based practice: built from the questions the student got wrong. */
export function buildResultPractice(l: LessonFacts, outcomes: AnswerOutcome[], type: PracticeType): PracticeSet {
  const byId = new Map(l.questions.map((q) => [q.id, q]));
  const wrongIds = new Set(outcomes.filter((o) => !o.correct).map((o) => o.questionId));
  // A question left unanswered is also one to practise.
  for (const q of l.questions) if (!outcomes.some((o) => o.questionId === q.id)) wrongIds.add(q.id);
  const wrong = [...wrongIds].map((id) => byId.get(id)).filter((q): q is AssessmentQuestion => !!q);
  if (wrong.length === 0) {
    const material = buildPracticeMaterial(l, type);
    return { reading: `You answered every question correctly.\n\n${material.reading}`, questions: material.questions };
  }
  const lessonSentences = analyseText(l.content).sentences.map((s) => s.text);
  const related = lessonSentences.filter((s) =>
    wrong.some((q) => normalizeText(s).includes(normalizeText(q.correctAnswer))),
  );
  const text = [...wrong.map(statementOf), ...related].join('\n');
  const count = Math.min(8, Math.max(3, wrong.length * 2));
  const plan = Array.from({ length: count }, (_, i) => PLANS[type][i % PLANS[type].length]!);
  const questions = generateOfflineQuestions(
    { content: text, questionType: 'mixed', count, topic: l.topic },
    { salt: `result-${type}`, exclude: l.questions.map((q) => q.text), plan },
  ).map((q) => ({
    id: '',
    question: q.questionText,
    type: q.questionType,
    options: q.options,
    correctAnswer: q.correctAnswer,
  }));
  const reading = [
    type === 'support'
      ? `Let's look again at the ${wrong.length === 1 ? 'question' : `${wrong.length} questions`} you missed in ${lessonName(l)}.`
      : `Nice work on ${lessonName(l)}. Let's stretch the ideas you missed.`,
    '',
    ...wrong.map((q) => `• ${q.text}\n  Correct answer: ${q.correctAnswer}.`),
    ...(related.length ? ['', 'From the lesson:', ...related.slice(0, 5).map((s) => `• ${endWithStop(s)}`)] : []),
  ].join('\n');
  return { reading, questions: questions.map((q, i) => ({ ...q, id: String(i) })) };
}

export interface PracticeScore {
  correct: number;
  total: number;
  /** Whole percent. */
  score: number;
  passed: boolean;
}

/** Scores answers keyed by question id (or index) against the stored answers; blanks are wrong. */
export function scorePractice(
  questions: readonly Pick<PracticeQuestion, 'correctAnswer'>[],
  answerFor: (index: number) => string | undefined,
): PracticeScore {
  const total = questions.length;
  const correct = questions.filter((q, i) => {
    const a = answerFor(i);
    return typeof a === 'string' && a.trim() !== '' && normalizeText(a) === normalizeText(q.correctAnswer);
  }).length;
  const score = total === 0 ? 0 : Math.round((correct / total) * 100);
  return { correct, total, score, passed: score >= MASTERY_PERCENT };
}

export const practiceTypeForLevel = (level: string): PracticeType => (level === 'below' ? 'support' : 'enrichment');

export function completionMessage(score: PracticeScore, type: PracticeType): string {
  if (score.passed)
    return type === 'support'
      ? `Great Job! You scored ${score.score}% and reached mastery: your level is now At Standard.`
      : `Great Job! You scored ${score.score}% on the challenge.`;
  return `Keep Practicing! You scored ${score.score}%; ${MASTERY_PERCENT}% shows mastery. Try again.`;
}
