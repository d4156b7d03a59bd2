// Generated questions and the checks every item passes before it is stored:
// the type matches the request, multiple choice has 4 distinct options including the answer,
// true/false answers are True/False, text is not empty, no question appears twice.

export const QUESTION_TYPES = ['multiple_choice', 'short_answer', 'true_false'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const REQUESTED_TYPES = [...QUESTION_TYPES, 'mixed'] as const;
export type RequestedType = (typeof REQUESTED_TYPES)[number];

export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 20;
export const MC_OPTIONS = 4;

export interface GeneratedQuestion {
  questionText: string;
  questionType: QuestionType;
  /** 4 options for multiple choice, ['True', 'False'] for true/false, [] for short answer. */
  options: string[];
  correctAnswer: string;
  points: number;
  /** CFItem identifiers of the standards the item was written for: only ones the request named. */
  standardIdentifiers?: string[];
}

/** A standard the teacher chose (a CASE CFItem), with the words the items are written for. */
export interface RequestStandard {
  identifier: string;
  /** CFItem.humanCodingScheme, e.g. CCSS.Math.Content.6.RP.A.1 */
  code: string;
  statement: string;
}

/** What the teacher asked for (the creation form's fields), without anything personal. */
export interface GenerationRequest {
  content: string;
  questionType: RequestedType;
  count: number;
  topic?: string;
  /** The standards chosen from the catalogue: every item is written for, and aligned to, some of these. */
  standards?: readonly RequestStandard[];
}

/**
 * The problem with an item's alignment, if any: with standards chosen it must name at least one,
 * and only chosen ones (an identifier or code the teacher did not choose, such as one a model made
 * up, is refused); without, it names none.
 */
export function alignmentProblem(
  q: Pick<GeneratedQuestion, 'standardIdentifiers'>,
  standards: readonly RequestStandard[] = [],
): string | undefined {
  const named = q.standardIdentifiers ?? [];
  const chosen = new Set(standards.map((s) => s.identifier));
  const other = named.find((id) => !chosen.has(id));
  if (other !== undefined) return `names a standard that was not chosen: ${other.slice(0, 80)}`;
  if (standards.length && named.length === 0) return 'names none of the chosen standards';
  return undefined;
}

/** A loosely shaped item as a provider returns it, before checking. */
export interface CandidateQuestion {
  questionText?: unknown;
  questionType?: unknown;
  options?: unknown;
  correctAnswer?: unknown;
}

export const normalizeText = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

const str = (v: unknown) => (typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') : '');

export function isRequestedType(v: string): v is RequestedType {
  return (REQUESTED_TYPES as readonly string[]).includes(v);
}

export function clampCount(n: number): number {
  if (!Number.isFinite(n)) return MIN_QUESTIONS;
  return Math.min(MAX_QUESTIONS, Math.max(MIN_QUESTIONS, Math.trunc(n)));
}

export type ItemCheck = { ok: true; question: GeneratedQuestion } | { ok: false; problem: string };

/**
 * Checks one item against the requested type and returns it in canonical form (trimmed text,
 * True/False spelled so, the answer spelled exactly as its option), or the first problem found.
 */
export function checkQuestion(item: CandidateQuestion, requested: RequestedType): ItemCheck {
  const questionText = str(item.questionText);
  const type = str(item.questionType) as QuestionType;
  const answer = str(item.correctAnswer);
  const rawOptions = Array.isArray(item.options) ? item.options : [];
  if (!questionText) return { ok: false, problem: 'empty question text' };
  if (!(QUESTION_TYPES as readonly string[]).includes(type)) return { ok: false, problem: `unknown type ${type}` };
  if (requested !== 'mixed' && type !== requested) return { ok: false, problem: `type ${type}, asked ${requested}` };
  if (!answer) return { ok: false, problem: 'empty correct answer' };
  if (type === 'multiple_choice') {
    const options = rawOptions.map(str);
    if (options.length !== MC_OPTIONS) return { ok: false, problem: `${options.length} options, need 4` };
    if (options.some((o) => !o)) return { ok: false, problem: 'empty option' };
    if (new Set(options.map(normalizeText)).size !== MC_OPTIONS) return { ok: false, problem: 'options repeat' };
    const match = options.find((o) => normalizeText(o) === normalizeText(answer));
    if (!match) return { ok: false, problem: 'correct answer not among options' };
    return { ok: true, question: { questionText, questionType: type, options, correctAnswer: match, points: 1 } };
  }
  if (type === 'true_false') {
    const tf = normalizeText(answer);
    if (tf !== 'true' && tf !== 'false') return { ok: false, problem: 'true/false answer must be True or False' };
    return {
      ok: true,
      question: {
        questionText,
        questionType: type,
        options: ['True', 'False'],
        correctAnswer: tf === 'true' ? 'True' : 'False',
        points: 1,
      },
    };
  }
  return { ok: true, question: { questionText, questionType: type, options: [], correctAnswer: answer, points: 1 } };
}

export interface CheckedSet {
  valid: GeneratedQuestion[];
  rejected: { index: number; problem: string }[];
}

/** Checks a list: invalid items and repeats (also of `existing`) are dropped and reported. */
export function checkQuestions(
  items: readonly CandidateQuestion[],
  requested: RequestedType,
  existing: readonly GeneratedQuestion[] = [],
): CheckedSet {
  const seen = new Set(existing.map((q) => normalizeText(q.questionText)));
  const valid: GeneratedQuestion[] = [];
  const rejected: CheckedSet['rejected'] = [];
  items.forEach((item, index) => {
    const checked = checkQuestion(item, requested);
    if (!checked.ok) {
      rejected.push({ index, problem: checked.problem });
      return;
    }
    const key = normalizeText(checked.question.questionText);
    if (seen.has(key)) {
      rejected.push({ index, problem: 'duplicate question' });
      return;
    }
    seen.add(key);
    valid.push(checked.question);
  });
  return { valid, rejected };
}

/** True when the whole set is what was asked: right count, every item valid, no repeats. */
export function isValidSet(
  questions: readonly GeneratedQuestion[],
  request: Pick<GenerationRequest, 'questionType' | 'count' | 'standards'>,
) {
  const { valid, rejected } = checkQuestions(questions, request.questionType);
  return (
    rejected.length === 0 &&
    valid.length === request.count &&
    questions.every((q) => alignmentProblem(q, request.standards) === undefined)
  );
}

/** Answers compare case-insensitively, trimmed, inner spaces collapsed (as scoring does). */
export const sameAnswer = (a: string, b: string) => normalizeText(a) === normalizeText(b);
