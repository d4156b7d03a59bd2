// Texts about question generation and what made the questions: a model ("written by a
// model") or rules over the teacher's own text ("built from your text"). AI is claimed only
// when a model wrote them.
import { isApiError } from '../../api/apiError';
import type { GenerationJob } from './assessmentsApi';

export const CREATE_FAILED = 'Failed to create assessment. Please try again.';
export const QUOTA_EXCEEDED =
  'OpenAI API quota exceeded. Please check your billing and usage limits or try again later.';
/** The toast for questions a model wrote. */
export const CREATED = 'Assessment created successfully with AI-generated questions!';
export const CREATED_FROM_TEXT = 'Assessment created successfully with questions built from your text.';
/** Below this many words the pasted text is likely a topic, not a lesson: the form says so. */
export const SHORT_LESSON_WORDS = 60;

export type QuestionSource = 'model' | 'text';

export function mentionsQuota(text: string | undefined | null): boolean {
  return Boolean(text && /quota/i.test(text));
}

/** The message for a failed creation call or a failed generation job. */
export function creationFailureMessage(error: unknown): string {
  if (isApiError(error) && (mentionsQuota(error.message) || mentionsQuota(error.serverMessage))) return QUOTA_EXCEEDED;
  if (error instanceof Error && mentionsQuota(error.message)) return QUOTA_EXCEEDED;
  return CREATE_FAILED;
}

/** Quota gets its own sentence; a text too short keeps the server's reason (what to paste); else the generic one. */
export function jobFailureMessage(job: Pick<GenerationJob, 'error'>): string {
  if (job.error && (job.error.reason === 'quota' || mentionsQuota(job.error.message))) return QUOTA_EXCEEDED;
  if (job.error?.reason === 'too_little_text' && job.error.message) return job.error.message;
  return CREATE_FAILED;
}

/** What made the questions, from the job's questionSource or the provider's name. */
export function questionSourceOf(providerOrSource: string | null | undefined): QuestionSource | null {
  if (providerOrSource === 'openai' || providerOrSource === 'model') return 'model';
  if (providerOrSource === 'offline' || providerOrSource === 'text') return 'text';
  return null;
}

export const SOURCE_LABELS = {
  model: 'Questions written by a model',
  text: 'Questions built from your text',
} as const;

/** 'Questions written by a model' or 'Questions built from your text'. */
export function sourceLabel(providerOrSource: string | null | undefined): string | null {
  const source = questionSourceOf(providerOrSource);
  return source ? SOURCE_LABELS[source] : null;
}

/** The toast once the questions are ready. */
export const createdMessage = (source: QuestionSource | null) => (source === 'model' ? CREATED : CREATED_FROM_TEXT);

export const SUCCESS_HEADERS = {
  model: 'Successfully Created with AI Questions!',
  text: 'Successfully Created with Questions Built from Your Text!',
  none: 'Successfully Created!',
} as const;

/** The preview page's header: the AI sentence only when a model wrote the questions. */
export function successHeader(source: QuestionSource | null): string {
  return SUCCESS_HEADERS[source ?? 'none'];
}

export const WRITING_LABELS = {
  model: 'A model is writing the questions...',
  text: 'Building questions from your text...',
  none: 'Writing questions...',
} as const;

/** The running job's line: who is writing. */
export function writingLabel(source: QuestionSource | null): string {
  return WRITING_LABELS[source ?? 'none'];
}

/** A hint for a pasted text that looks like a topic rather than a lesson; null when long enough. */
// Words that make up much of any Spanish text and are rare in English (and the reverse): enough
// to tell a Spanish lesson from an English one that quotes a Spanish phrase.
const SPANISH = new Set(
  'el la los las del que y en un una por para con es son se al lo como más pero sus su está'.split(' '),
);
const ENGLISH = new Set('the of and to in is are that it for with as was on by this be from'.split(' '));
export const ENGLISH_ONLY =
  'This lesson looks Spanish. The question generator reads English lesson text only: questions made from Spanish text would be garbled. Paste the lesson in English, or write the questions yourself after creating the assessment.';

/** The form's notice when the pasted lesson reads as Spanish (the generator reads English only). */
export function lessonLanguageHint(text: string): string | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 8) return null;
  const spanish = words.filter((w) => SPANISH.has(w)).length;
  const english = words.filter((w) => ENGLISH.has(w)).length;
  return spanish >= words.length * 0.15 && spanish > 3 * english ? ENGLISH_ONLY : null;
}

/** How many words a pasted text has when it is too short to be a lesson; null when empty or long enough. */
export function shortLessonWords(text: string): number | null {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return words === 0 || words >= SHORT_LESSON_WORDS ? null : words;
}
