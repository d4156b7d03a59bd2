// Practice material: support (below standard: review and recognition) and enrichment (at or above:
// recall and connections), per assessment or per result (from the student's wrong answers), and
// its scoring on the server (mastery: 80 % or more).
import { createHash } from 'node:crypto';
import { reducedOptions } from '@checkpoint/service-kit';
import { analyseLesson, endWithStop, mentions, seededRandom, shuffled, type Lesson, type Sentence } from './lesson.ts';
import { buildItems, isLessonText } from './offline-generator.ts';
import { normalizeText, type GeneratedQuestion, type QuestionType } from './question.ts';

export const PRACTICE_TYPES = ['support', 'enrichment'] as const;
export type PracticeType = (typeof PRACTICE_TYPES)[number];
export const MASTERY_PERCENT = 80;
/**
 * Rounds of result-based practice per result (the first and two Try Agains): each round takes one
 * final attempt, so a student learns their score at most this many times.
 */
export const PRACTICE_MAX_ROUNDS = 3;
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

/** "Try Again" on result-based practice: the round, and the questions of the last one to avoid. */
export interface PracticeRetry {
  round: number;
  avoid: string[];
}

// Support recognises (true/false, choices); enrichment recalls (short answers) and reasons.
const PLANS: Record<PracticeType, QuestionType[]> = {
  support: ['true_false', 'multiple_choice', 'true_false', 'multiple_choice', 'multiple_choice'],
  enrichment: ['short_answer', 'multiple_choice', 'short_answer', 'multiple_choice', 'short_answer'],
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
 * A question as a student with fewer answer choices sees it (issue 32): the key and all but
 * `reducedChoices` distractors, by the rule their assessments follow. `scope` (the assessment, or
 * the result and round) makes the choice the material's own, as question ids are positions.
 */
export function withFewerChoices(
  q: PracticeQuestion,
  scope: string,
  studentId: string,
  reducedChoices: number,
): PracticeQuestion {
  if (reducedChoices <= 0 || q.type !== 'multiple_choice') return q;
  const item = { id: `${scope}:${q.id}`, questionType: q.type, options: q.options, correctAnswer: q.correctAnswer };
  return { ...q, options: reducedOptions(item, studentId, reducedChoices) };
}

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

/**
 * A question as a plain statement of its answer, for study text, or undefined when it does not
 * make one (a question that is not a blank or a true statement is never turned into "facts").
 */
export function statementOf(q: AssessmentQuestion): string | undefined {
  const text = q.text.replace(/^\s*(true or false|fill in the blank|complete the sentence)\s*[:?-]\s*/i, '').trim();
  if (q.type === 'true_false') return normalizeText(q.correctAnswer) === 'true' ? endWithStop(text) : undefined;
  if (text.includes('_____') && !/\?\s*$/.test(text)) return endWithStop(text.replace('_____', q.correctAnswer));
  return undefined;
}

/** The teacher's text, or (when the questions were written by hand) statements from the questions. */
export function studyText(l: LessonFacts): string {
  const content = l.content.trim();
  if (content) return content;
  return l.questions
    .map(statementOf)
    .filter((x): x is string => !!x)
    .join('\n');
}

/** The lesson's sentences that carry most of its key terms, in the lesson's order. */
function keySentences(lesson: Lesson, max: number): string[] {
  const rank = new Map(lesson.ranked.map((k, i) => [k, i]));
  const weight = (s: Sentence) => s.terms.reduce((sum, t) => sum + 1 / (1 + (rank.get(t.key) ?? 99)), 0);
  return lesson.sentences
    .filter((s) => s.standalone && s.terms.length > 0)
    .sort((a, b) => weight(b) - weight(a) || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((s) => endWithStop(s.text));
}

/** The assessment's own questions, when the lesson is too thin to write new ones. */
function ownQuestions(l: LessonFacts, prefix: string): PracticeQuestion[] {
  return l.questions
    .filter((q): q is AssessmentQuestion & { type: QuestionType } =>
      (['multiple_choice', 'true_false', 'short_answer'] as string[]).includes(q.type),
    )
    .slice(0, PRACTICE_QUESTIONS)
    .map((q, i) => ({
      id: `${prefix}${i + 1}`,
      question: q.text,
      type: q.type,
      options: q.options,
      correctAnswer: q.correctAnswer,
    }));
}

/** New questions from the lesson at a level; fewer when it gives fewer, none when it is too thin. */
function practiceQuestions(
  lesson: Lesson,
  plan: QuestionType[],
  exclude: string[],
  salt: string,
  level: 'easy' | 'hard',
  focus: string[] = [],
): GeneratedQuestion[] {
  if (!isLessonText(lesson)) return [];
  return buildItems(lesson, plan, { exclude, salt, level, focus });
}

/**
 * The part of a student's support reading aimed at what they missed in their result: each missed
 * question with its answer and the lesson's sentence that teaches it. Empty when nothing was missed.
 */
export function reviewOfMissed(l: LessonFacts, outcomes: AnswerOutcome[], practised: readonly string[] = []): string {
  // SECURITY: a question the practice asks again (a lesson too thin for new ones) never comes with
  // its answer, or copying the review would pass the practice and raise the level.
  const wrong = l.questions.filter(
    (q) => !outcomes.some((o) => o.questionId === q.id && o.correct) && !practised.includes(q.text),
  );
  if (wrong.length === 0 || outcomes.length === 0) return '';
  const lesson = analyseLesson(studyText(l));
  const lines = wrong.slice(0, 6).map((q) => {
    const terms = missedTerms(lesson, q);
    const teaching = lesson.sentences.find((s) => s.standalone && terms.some((t) => mentions(s.text, t)));
    return `• ${q.text}\n  Correct answer: ${q.correctAnswer}.${teaching ? `\n  The lesson says: ${endWithStop(teaching.text)}` : ''}`;
  });
  return [`What you missed on ${lessonName(l)}:`, ...lines].join('\n');
}

/**
 * Offline practice per assessment and type. Support re-teaches from the lesson's key sentences
 * and its definitions, with easier items (true/false and multiple choice, sentences completed);
 * enrichment asks harder ones (terms from their description, causes, recall without options).
 */
export function buildPracticeMaterial(l: LessonFacts, type: PracticeType): PracticeSet {
  const text = studyText(l);
  const lesson = analyseLesson(text);
  const name = lessonName(l);
  const prefix = type === 'support' ? 's' : 'e';
  const exclude = l.questions.map((q) => q.text);
  // Enrichment asks nothing support already asked word for word (the same student may see both);
  // neither repeats the assessment's own sentences.
  const support =
    type === 'enrichment'
      ? new Set(practiceQuestions(lesson, PLANS.support, exclude, 'support', 'easy').map((q) => q.questionText))
      : new Set<string>();
  const made = practiceQuestions(lesson, PLANS[type], exclude, type, type === 'support' ? 'easy' : 'hard').filter(
    (q) => !support.has(q.questionText),
  );
  const questions = made.length
    ? made.map((q, i) => ({
        id: `${prefix}${i + 1}`,
        question: q.questionText,
        type: q.questionType,
        options: q.options,
        correctAnswer: q.correctAnswer,
      }))
    : ownQuestions(l, prefix);
  const definitions = lesson.sentences
    .filter((s) => s.definition)
    .slice(0, 4)
    .map(
      (s) => `• ${lesson.terms.get(s.definition!.key)?.text ?? s.definition!.surface}: ${s.definition!.description}.`,
    );
  if (type === 'support') {
    const ideas = keySentences(lesson, 6);
    // Hand-written questions without a lesson: their answers are what to go over.
    const fromQuestions = ideas.length
      ? []
      : l.questions.slice(0, 6).map((q) => `• ${q.text}\n  Answer: ${q.correctAnswer}.`);
    const reading = [
      `Let's go over ${name} again, one idea at a time.`,
      '',
      ideas.length ? 'The big ideas:' : 'The questions and their answers:',
      ...ideas.map((s) => `• ${s}`),
      ...fromQuestions,
      ...(definitions.length ? ['', 'Words to know:', ...definitions] : []),
      '',
      `Read each idea slowly, then answer the practice questions. Score ${MASTERY_PERCENT}% or more to show mastery.`,
    ].join('\n');
    return { reading, questions };
  }
  // Statements only: every prompt a student is asked to answer is one of the questions below.
  const causes = lesson.sentences
    .filter((s) => s.cause && s.standalone)
    .slice(0, 2)
    .map((s) => `• ${endWithStop(s.text)}`);
  const reading = [
    `Going further with ${name}.`,
    '',
    ...keySentences(lesson, 3).map((s) => `• ${s}`),
    ...(causes.length ? ['', 'How the ideas connect:', ...causes] : []),
    ...(definitions.length ? ['', 'Words to know:', ...definitions] : []),
    '',
    `Then answer the questions below; ${MASTERY_PERCENT}% or more is mastery.`,
  ].join('\n');
  return { reading, questions };
}

export interface AnswerOutcome {
  questionId: string;
  answer: string;
  correct: boolean;
}

/** What a missed question was about: its answer, or the lesson's terms in its statement. */
function missedTerms(lesson: Lesson, q: AssessmentQuestion): string[] {
  if (q.type !== 'true_false') return [q.correctAnswer];
  return [...lesson.terms.values()].filter((t) => mentions(q.text, t.text)).map((t) => t.text);
}

/**
 * Result-based practice, written for the questions the student missed: the reading goes over each
 * of them with the lesson's sentences that teach it and the words it turns on; the questions ask
 * about the same ideas from other sentences of the lesson first, never the assessment's own stems.
 * A retry asks other items than the last round where the lesson allows, in another order.
 */
export function buildResultPractice(
  l: LessonFacts,
  outcomes: AnswerOutcome[],
  type: PracticeType,
  retry?: PracticeRetry,
): PracticeSet {
  const byId = new Map(l.questions.map((q) => [q.id, q]));
  const wrongIds = new Set(outcomes.filter((o) => !o.correct).map((o) => o.questionId));
  // A question left unanswered is also one to practise.
  for (const q of l.questions) if (!outcomes.some((o) => o.questionId === q.id)) wrongIds.add(q.id);
  const wrong = [...wrongIds].map((id) => byId.get(id)).filter((q): q is AssessmentQuestion => !!q);
  if (wrong.length === 0) {
    const material = buildPracticeMaterial(l, type);
    return { reading: `You answered every question correctly.\n\n${material.reading}`, questions: material.questions };
  }
  const lesson = analyseLesson(studyText(l));
  const focus = [...new Set(wrong.flatMap((q) => missedTerms(lesson, q)))];
  const teaching = lesson.sentences.filter((s) => s.standalone && focus.some((t) => mentions(s.text, t)));
  const words = lesson.sentences
    .filter((s) => s.definition && focus.some((t) => mentions(t, s.definition!.surface)))
    .map(
      (s) => `• ${lesson.terms.get(s.definition!.key)?.text ?? s.definition!.surface}: ${s.definition!.description}.`,
    );
  const count = Math.min(8, Math.max(3, wrong.length * 2));
  const plan = Array.from({ length: count }, (_, i) => PLANS[type][i % PLANS[type].length]!);
  const level = type === 'support' ? 'easy' : 'hard';
  const salt = `result-${type}-${retry?.round ?? 0}`;
  const own = l.questions.map((q) => q.text);
  let made = practiceQuestions(lesson, plan, [...own, ...(retry?.avoid ?? [])], salt, level, focus);
  // A short lesson has no other items for a retry: the last round's again, in another order.
  if (retry && made.length < 3) made = practiceQuestions(lesson, plan, own, salt, level, focus);
  if (retry) made = shuffled(made, seededRandom(salt));
  const questions: PracticeQuestion[] = made.length
    ? made.map((q, i) => ({
        id: String(i),
        question: q.questionText,
        type: q.questionType,
        options: q.options,
        correctAnswer: q.correctAnswer,
      }))
    : ownQuestions(l, '').map((q, i) => ({ ...q, id: String(i) }));
  const reading = [
    type === 'support'
      ? `Let's look again at the ${wrong.length === 1 ? 'question' : `${wrong.length} questions`} you missed in ${lessonName(l)}.`
      : `Nice work on ${lessonName(l)}. Let's stretch the ideas you missed.`,
    '',
    // The assessment's own questions asked again (nothing new to ask): without their answers.
    ...wrong.map((q) => (made.length ? `• ${q.text}\n  Correct answer: ${q.correctAnswer}.` : `• ${q.text}`)),
    ...(teaching.length
      ? ['', 'What the lesson says about them:', ...teaching.slice(0, 6).map((s) => `• ${endWithStop(s.text)}`)]
      : []),
    ...(words.length ? ['', 'Words to know:', ...words] : []),
  ].join('\n');
  return { reading, questions };
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
