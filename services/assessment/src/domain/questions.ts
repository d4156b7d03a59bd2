// Question rules: options may arrive as an array, a JSON-encoded
// list or delimited text; multiple choice has 4 distinct non-empty options that include the
// correct answer; true/false answers are True or False; short answer has no options and may list
// up to 10 accepted alternatives besides its key.
import { normalizeShortAnswer, shortAnswerMatches } from './scoring.ts';

export const QUESTION_TYPES = ['multiple_choice', 'short_answer', 'true_false'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MAX_QUESTIONS = 20;
export const MAX_POINTS = 100;
export const TRUE_FALSE_OPTIONS = ['True', 'False'];
export const MAX_ACCEPTED_ANSWERS = 10;
export const MAX_ACCEPTED_ANSWER_LENGTH = 200;

export interface QuestionInput {
  questionText: string;
  questionType: QuestionType;
  options: string[];
  correctAnswer: string;
  /** Short answer only: other answers scored as right (empty for the other types). */
  acceptedAnswers: string[];
  points: number;
}

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A flat list as trimmed texts; undefined when an entry is a list or an object (never String()ed). */
function flatList(list: unknown[]): string[] | undefined {
  if (!list.every(isScalar)) return undefined;
  return list.map((o) => String(o ?? '').trim()).filter((o) => o !== '');
}

/**
 * Turns any of the option encodings into a list of trimmed strings (empty entries dropped). A
 * list holding lists or objects is not a list of options: as an array it gives none, as text it is
 * read as delimited text.
 */
export function parseOptions(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return flatList(raw) ?? [];
  if (typeof raw !== 'string') return [];
  const text = raw.trim();
  if (text === '') return [];
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const list = Array.isArray(parsed) ? flatList(parsed) : undefined;
      if (list) return list;
    } catch {
      // not JSON: fall through to delimited text
    }
  }
  const separator = text.includes('\n') ? /\r?\n/ : text.includes('|') ? '|' : text.includes(';') ? ';' : ',';
  return text
    .split(separator)
    .map((o) => o.trim())
    .filter((o) => o !== '');
}

/** 'true'/'t'/'yes' → True, 'false'/'f'/'no' → False, anything else undefined. */
export function normalizeTrueFalse(answer: string): 'True' | 'False' | undefined {
  const a = answer.trim().toLowerCase();
  if (a === 'true' || a === 't') return 'True';
  if (a === 'false' || a === 'f') return 'False';
  return undefined;
}

export type QuestionProblem = { field: 'options' | 'correctAnswer' | 'acceptedAnswers'; message: string };

/**
 * A short answer's alternatives: trimmed, and blanks, repeats and those the key already accepts
 * dropped (compared as scoring compares them).
 */
function acceptedAlternatives(correctAnswer: string, accepted: string[]): string[] | QuestionProblem {
  const kept: string[] = [];
  for (const raw of accepted) {
    const a = raw.trim();
    if (a.length > MAX_ACCEPTED_ANSWER_LENGTH)
      return {
        field: 'acceptedAnswers',
        message: `Each accepted answer must be at most ${MAX_ACCEPTED_ANSWER_LENGTH} characters`,
      };
    if (normalizeShortAnswer(a) === '' || [correctAnswer, ...kept].some((k) => shortAnswerMatches(a, k))) continue;
    kept.push(a);
  }
  if (kept.length > MAX_ACCEPTED_ANSWERS)
    return { field: 'acceptedAnswers', message: `At most ${MAX_ACCEPTED_ANSWERS} accepted answers` };
  return kept;
}

/**
 * Checks a question of a known type and returns it in its stored form, or the first problem
 * (messages shown in the edit form as they are).
 */
export function normalizeQuestion(input: QuestionInput): QuestionInput | QuestionProblem {
  const correctAnswer = input.correctAnswer.trim();
  if (input.questionType === 'true_false') {
    const tf = normalizeTrueFalse(correctAnswer);
    if (!tf) return { field: 'correctAnswer', message: 'Correct answer must be True or False' };
    return { ...input, correctAnswer: tf, options: [...TRUE_FALSE_OPTIONS], acceptedAnswers: [] };
  }
  if (input.questionType === 'short_answer') {
    const acceptedAnswers = acceptedAlternatives(correctAnswer, input.acceptedAnswers);
    if (!Array.isArray(acceptedAnswers)) return acceptedAnswers;
    return { ...input, correctAnswer, options: [], acceptedAnswers };
  }
  const options = input.options.map((o) => o.trim());
  if (options.length !== 4 || options.some((o) => o === ''))
    return { field: 'options', message: 'Multiple choice questions need 4 options (A to D)' };
  if (new Set(options.map((o) => o.toLowerCase())).size !== 4)
    return { field: 'options', message: 'Options must all be different' };
  const match = options.find((o) => o.toLowerCase() === correctAnswer.toLowerCase());
  if (!match) return { field: 'correctAnswer', message: 'Correct answer must be one of the options' };
  return { ...input, options, correctAnswer: match, acceptedAnswers: [] };
}

export const isProblem = (v: QuestionInput | QuestionProblem): v is QuestionProblem => 'field' in v && 'message' in v;
