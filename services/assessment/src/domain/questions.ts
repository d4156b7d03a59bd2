// Question rules (spec §3, §5, ARCHITECTURE §7): options may arrive as an array, a JSON-encoded
// list or delimited text; multiple choice has 4 distinct non-empty options that include the
// correct answer; true/false answers are True or False; short answer has no options.

export const QUESTION_TYPES = ['multiple_choice', 'short_answer', 'true_false'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MAX_QUESTIONS = 20;
export const MAX_POINTS = 100;
export const TRUE_FALSE_OPTIONS = ['True', 'False'];

export interface QuestionInput {
  questionText: string;
  questionType: QuestionType;
  options: string[];
  correctAnswer: string;
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

export type QuestionProblem = { field: 'options' | 'correctAnswer'; message: string };

/**
 * Checks a question of a known type and returns it in its stored form, or the first problem
 * (messages shown in the edit form as they are).
 */
export function normalizeQuestion(input: QuestionInput): QuestionInput | QuestionProblem {
  const correctAnswer = input.correctAnswer.trim();
  if (input.questionType === 'true_false') {
    const tf = normalizeTrueFalse(correctAnswer);
    if (!tf) return { field: 'correctAnswer', message: 'Correct answer must be True or False' };
    return { ...input, correctAnswer: tf, options: [...TRUE_FALSE_OPTIONS] };
  }
  if (input.questionType === 'short_answer') return { ...input, correctAnswer, options: [] };
  const options = input.options.map((o) => o.trim());
  if (options.length !== 4 || options.some((o) => o === ''))
    return { field: 'options', message: 'Multiple choice questions need 4 options (A to D)' };
  if (new Set(options.map((o) => o.toLowerCase())).size !== 4)
    return { field: 'options', message: 'Options must all be different' };
  const match = options.find((o) => o.toLowerCase() === correctAnswer.toLowerCase());
  if (!match) return { field: 'correctAnswer', message: 'Correct answer must be one of the options' };
  return { ...input, options, correctAnswer: match };
}

export const isProblem = (v: QuestionInput | QuestionProblem): v is QuestionProblem => 'field' in v && 'message' in v;
