// Texts about question generation (spec §8) and which provider made the questions.
import { isApiError } from '../../api/apiError';
import type { GenerationJob } from './assessmentsApi';

export const CREATE_FAILED = 'Failed to create assessment. Please try again.';
export const QUOTA_EXCEEDED =
  'OpenAI API quota exceeded. Please check your billing and usage limits or try again later.';
export const CREATED = 'Assessment created successfully with AI-generated questions!';

export function mentionsQuota(text: string | undefined | null): boolean {
  return Boolean(text && /quota/i.test(text));
}

/** The §8 message for a failed creation call or a failed generation job. */
export function creationFailureMessage(error: unknown): string {
  if (isApiError(error) && (mentionsQuota(error.message) || mentionsQuota(error.serverMessage))) return QUOTA_EXCEEDED;
  if (error instanceof Error && mentionsQuota(error.message)) return QUOTA_EXCEEDED;
  return CREATE_FAILED;
}

export function jobFailureMessage(job: Pick<GenerationJob, 'error'>): string {
  if (job.error && (job.error.reason === 'quota' || mentionsQuota(job.error.message))) return QUOTA_EXCEEDED;
  return CREATE_FAILED;
}

/** 'Generated offline from your text' or 'Generated with OpenAI'. */
export function providerLabel(provider: string | null | undefined): string | null {
  if (provider === 'offline') return 'Generated offline from your text';
  if (provider === 'openai') return 'Generated with OpenAI';
  return null;
}
