// Validation rules and messages of spec §5 for the assessment forms.
import { z } from 'zod';

export const QUESTION_TYPE_LABELS = {
  multiple_choice: 'Multiple Choice',
  short_answer: 'Short Answer',
  true_false: 'True/False',
} as const;

export const CREATION_TYPE_LABELS = { ...QUESTION_TYPE_LABELS, mixed: 'Mixed' } as const;

export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 20;
export const DEFAULT_QUESTIONS = 10;

/** Non-numeric input becomes 1 (spec §5). */
export function questionCountFrom(value: unknown): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? '').trim(), 10);
  return Number.isFinite(n) ? Math.trunc(n) : 1;
}

export const createAssessmentSchema = z.object({
  classId: z.string(),
  title: z.string().trim().min(1, { error: 'Title is required' }),
  contentToAssess: z.string().trim().min(1, { error: 'Content to be assessed is required' }),
  questionType: z.enum(['multiple_choice', 'short_answer', 'true_false', 'mixed'], {
    error: 'Question type is required',
  }),
  numberOfQuestions: z.preprocess(
    questionCountFrom,
    z
      .number()
      .min(MIN_QUESTIONS, { error: 'Must have at least 1 question' })
      .max(MAX_QUESTIONS, { error: 'Maximum 20 questions' }),
  ),
  description: z.string().trim(),
});

export type CreateAssessmentFormInput = z.input<typeof createAssessmentSchema>;
export type CreateAssessmentFormValues = z.output<typeof createAssessmentSchema>;

export const assessmentDetailsSchema = z.object({
  title: z.string().trim().min(1, { error: 'Title is required' }),
  description: z.string().trim(),
  topic: z.string().trim().min(1, { error: 'Topic is required' }),
  standard: z.string().trim(),
});
export type AssessmentDetailsValues = z.infer<typeof assessmentDetailsSchema>;

export const OPTION_LETTERS = ['A', 'B', 'C', 'D'] as const;

export const questionEditSchema = z.object({
  questionText: z.string().trim().min(1, { error: 'Question text is required' }),
  questionType: z.enum(['multiple_choice', 'short_answer', 'true_false'], {
    error: 'Question type must be multiple choice, short answer or true/false',
  }),
  options: z.array(z.string()),
  correctAnswer: z.string().trim().min(1, { error: 'Correct answer is required' }),
});
export type QuestionEditValues = z.infer<typeof questionEditSchema>;

/** The option list sent for a question: the non-empty A–D inputs, True/False, or none. */
export function optionsToSend(values: QuestionEditValues): string[] {
  if (values.questionType === 'true_false') return ['True', 'False'];
  if (values.questionType === 'short_answer') return [];
  return values.options.map((o) => o.trim()).filter(Boolean);
}
