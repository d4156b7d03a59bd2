// Validation rules and messages of the assessment forms.
import { z } from 'zod';
import type { QuestionInput } from './assessmentsApi';

export const QUESTION_TYPE_LABELS = {
  multiple_choice: 'Multiple Choice',
  short_answer: 'Short Answer',
  true_false: 'True/False',
} as const;

export const CREATION_TYPE_LABELS = { ...QUESTION_TYPE_LABELS, mixed: 'Mixed' } as const;

export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 20;
export const DEFAULT_QUESTIONS = 10;

/** Non-numeric input becomes 1. */
export function questionCountFrom(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? '').trim(), 10);
  return Number.isFinite(n) ? Math.trunc(n) : 1;
}

/** The server's limit for topic and standard. */
export const TOPIC_MAX = 120;

export const OPTION_LETTERS = ['A', 'B', 'C', 'D'] as const;
export const MAX_POINTS = 100;
/** The API stores points to the hundredth: 0.01 is the least it takes. */
export const MIN_POINTS = 0.01;
/** A decimal number with at most two decimals (the API's hundredths), blanks around it. */
const POINTS_TEXT = /^\s*(?:\d+(?:\.\d{0,2})?|\.\d{1,2})\s*$/;
export const MAX_ACCEPTED_ANSWERS = 10;
export const MAX_ACCEPTED_ANSWER_LENGTH = 200;

/**
 * The forms' messages in English (what the schemas give); a screen shows each in the interface's
 * language from the assessments namespace's `validation.<its name here>` (useAssessmentMessage).
 */
export const MESSAGES = {
  titleRequired: 'Title is required',
  contentRequired: 'Content to be assessed is required',
  typeRequired: 'Question type is required',
  minQuestions: 'Must have at least 1 question',
  maxQuestions: 'Maximum 20 questions',
  topicMax: `Topic must be at most ${TOPIC_MAX} characters`,
  standardMax: `Standard must be at most ${TOPIC_MAX} characters`,
  topicRequired: 'Topic is required',
  dueDateInvalid: 'Due date must be a valid date and time',
  dueDateYears: 'Due date must be between the years 2000 and 2099',
  opensAtInvalid: 'Opens at must be a valid date and time',
  opensAtYears: 'Opens at must be between the years 2000 and 2099',
  closesAtInvalid: 'Closes at must be a valid date and time',
  closesAtYears: 'Closes at must be between the years 2000 and 2099',
  timeLimitWhole: 'Time limit must be a whole number of minutes',
  timeLimitRange: 'Time limit must be from 1 to 1440 minutes (24 hours)',
  attemptsRange: 'Attempts allowed must be from 1 to 10',
  closesAfterOpens: 'Closes at must be later than Opens at',
  questionTextRequired: 'Question text is required',
  questionTypeInvalid: 'Question type must be multiple choice, short answer or true/false',
  points: `Points must be a number from ${MIN_POINTS} to ${MAX_POINTS}, in hundredths at most (e.g. 0.5)`,
  fourOptions: 'Multiple choice questions need 4 options (A to D)',
  optionsDifferent: 'Options must all be different',
  markOption: 'Mark the correct answer: choose one of the options',
  markTrueFalse: 'Mark the correct answer: True or False',
  correctAnswerRequired: 'Correct answer is required',
  acceptedMax: `At most ${MAX_ACCEPTED_ANSWERS} accepted answers`,
  acceptedLength: `Each accepted answer must be at most ${MAX_ACCEPTED_ANSWER_LENGTH} characters`,
} as const;

export const createAssessmentSchema = z.object({
  classId: z.string(),
  title: z.string().trim().min(1, { error: MESSAGES.titleRequired }),
  contentToAssess: z.string().trim().min(1, { error: MESSAGES.contentRequired }),
  questionType: z.enum(['multiple_choice', 'short_answer', 'true_false', 'mixed'], {
    error: MESSAGES.typeRequired,
  }),
  numberOfQuestions: z.preprocess(
    questionCountFrom,
    z
      .number()
      .min(MIN_QUESTIONS, { error: MESSAGES.minQuestions })
      .max(MAX_QUESTIONS, { error: MESSAGES.maxQuestions }),
  ),
  description: z.string().trim(),
  // Short labels for badges and cards; the lesson goes in contentToAssess.
  topic: z.string().trim().max(TOPIC_MAX, { error: MESSAGES.topicMax }),
  standard: z.string().trim().max(TOPIC_MAX, { error: MESSAGES.standardMax }),
});

export type CreateAssessmentFormInput = z.input<typeof createAssessmentSchema>;
export type CreateAssessmentFormValues = z.output<typeof createAssessmentSchema>;

/** A date-time input's value ('' for none), checked as the server checks it, with its two messages. */
const dateTimeField = (invalid: string, years: string) =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (v === '') return;
      const date = new Date(v);
      if (Number.isNaN(date.getTime())) ctx.addIssue({ code: 'custom', message: invalid });
      else if (date.getFullYear() < 2000 || date.getFullYear() > 2099) ctx.addIssue({ code: 'custom', message: years });
    });
const dueDateField = dateTimeField(MESSAGES.dueDateInvalid, MESSAGES.dueDateYears);

export const assessmentDetailsSchema = z
  .object({
    title: z.string().trim().min(1, { error: MESSAGES.titleRequired }),
    description: z.string().trim(),
    topic: z.string().trim().min(1, { error: MESSAGES.topicRequired }).max(TOPIC_MAX, { error: MESSAGES.topicMax }),
    standard: z.string().trim().max(TOPIC_MAX, { error: MESSAGES.standardMax }),
    dueDate: dueDateField,
    shuffleQuestions: z.boolean().optional(),
    shuffleOptions: z.boolean().optional(),
    reviewShortAnswers: z.boolean().optional(),
    /** Whole minutes, 1 to 1440; '' for no time limit. */
    timeLimitMinutes: z
      .string()
      .trim()
      .regex(/^(\d{1,4})?$/, { error: MESSAGES.timeLimitWhole })
      .refine((v) => v === '' || (Number(v) >= 1 && Number(v) <= 1440), {
        error: MESSAGES.timeLimitRange,
      })
      .optional(),
    opensAt: dateTimeField(MESSAGES.opensAtInvalid, MESSAGES.opensAtYears).optional(),
    closesAt: dateTimeField(MESSAGES.closesAtInvalid, MESSAGES.closesAtYears).optional(),
    /** Attempts allowed per student, '1' to '10' (a select). */
    maxAttempts: z
      .string()
      .regex(/^([1-9]|10)$/, { error: MESSAGES.attemptsRange })
      .optional(),
    countedAttempt: z.enum(['latest', 'best']).optional(),
  })
  .refine((v) => !v.opensAt || !v.closesAt || new Date(v.closesAt) > new Date(v.opensAt), {
    message: MESSAGES.closesAfterOpens,
    path: ['closesAt'],
  });
export type AssessmentDetailsValues = z.infer<typeof assessmentDetailsSchema>;

/** An ISO date-time as the date-time input shows it (local time, to the minute); '' for none. */
export function toDateTimeLocal(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The input's local date and time as the API takes it (ISO, UTC); null for none. */
export function dueDateToSend(value: string): string | null {
  return value.trim() === '' ? null : new Date(value).toISOString();
}

/** The alternatives box: one accepted answer per line, blanks ignored. */
export function acceptedAnswersFrom(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/**
 * One question's form. The key is marked, not typed, for the types that have options: a radio per
 * option (correctOption, the index of A–D) and True or False; short answers type it, with other
 * accepted answers one per line.
 */
export const questionEditSchema = z
  .object({
    questionText: z.string().trim().min(1, { error: MESSAGES.questionTextRequired }),
    questionType: z.enum(['multiple_choice', 'short_answer', 'true_false'], {
      error: MESSAGES.questionTypeInvalid,
    }),
    options: z.array(z.string()),
    correctOption: z.string(),
    trueFalse: z.string(),
    correctAnswer: z.string(),
    acceptedAnswers: z.string(),
    points: z.string(),
  })
  .superRefine((q, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!POINTS_TEXT.test(q.points) || Number(q.points) < MIN_POINTS || Number(q.points) > MAX_POINTS)
      issue('points', MESSAGES.points);
    if (q.questionType === 'multiple_choice') {
      const options = q.options.map((o) => o.trim());
      if (options.length !== 4 || options.some((o) => o === '')) issue('options', MESSAGES.fourOptions);
      else if (new Set(options.map((o) => o.toLowerCase())).size !== 4) issue('options', MESSAGES.optionsDifferent);
      if (!['0', '1', '2', '3'].includes(q.correctOption)) issue('correctOption', MESSAGES.markOption);
    } else if (q.questionType === 'true_false') {
      if (q.trueFalse !== 'True' && q.trueFalse !== 'False') issue('trueFalse', MESSAGES.markTrueFalse);
    } else {
      if (q.correctAnswer.trim() === '') issue('correctAnswer', MESSAGES.correctAnswerRequired);
      const accepted = acceptedAnswersFrom(q.acceptedAnswers);
      if (accepted.length > MAX_ACCEPTED_ANSWERS) issue('acceptedAnswers', MESSAGES.acceptedMax);
      else if (accepted.some((a) => a.length > MAX_ACCEPTED_ANSWER_LENGTH))
        issue('acceptedAnswers', MESSAGES.acceptedLength);
    }
  });
export type QuestionEditValues = z.infer<typeof questionEditSchema>;

/** What the API takes for the form's values: the marked option's text as the key. */
export function questionToSend(values: QuestionEditValues): QuestionInput {
  const base = { questionText: values.questionText.trim(), points: Number(values.points) };
  if (values.questionType === 'true_false')
    return { ...base, questionType: 'true_false', options: ['True', 'False'], correctAnswer: values.trueFalse };
  if (values.questionType === 'short_answer')
    return {
      ...base,
      questionType: 'short_answer',
      options: [],
      correctAnswer: values.correctAnswer.trim(),
      acceptedAnswers: acceptedAnswersFrom(values.acceptedAnswers),
    };
  const options = values.options.map((o) => o.trim());
  return {
    ...base,
    questionType: 'multiple_choice',
    options,
    correctAnswer: options[Number(values.correctOption)] ?? '',
  };
}
