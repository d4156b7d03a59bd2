// Failures of generation as the job and the UI see them (the quota message the UI shows as it is) and the typed HTTP
// errors of this service.
import { ConflictError, NotFoundError } from '@checkpoint/service-kit';

export const FAILURE_REASONS = [
  'quota',
  'rate_limited',
  'invalid_output',
  'provider_error',
  'too_little_text',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const QUOTA_MESSAGE =
  'OpenAI API quota exceeded. Please check your billing and usage limits or try again later.';
export const FAILURE_MESSAGES: Record<FailureReason, string> = {
  quota: QUOTA_MESSAGE,
  rate_limited: 'The AI provider is busy right now (rate limit). Please try again in a minute.',
  invalid_output: 'The AI provider returned questions that could not be used. Please try again.',
  provider_error: 'Failed to create assessment. Please try again.',
  too_little_text:
    'There is not enough lesson text to write questions from. Paste the lesson itself (a few paragraphs), not only a topic or a standard code, or ask your administrator to configure a model.',
};

/**
 * A provider failure. `retryable`: another job attempt later may succeed (not so for quota, nor
 * for a text too short: the same text gives the same questions).
 */
export class GenerationError extends Error {
  constructor(
    readonly reason: FailureReason,
    detail?: string,
    readonly retryable = reason !== 'quota' && reason !== 'too_little_text',
  ) {
    super(detail ?? FAILURE_MESSAGES[reason]);
    this.name = 'GenerationError';
  }
  /** What the teacher reads; a too-short text says how many questions it could give. */
  get userMessage(): string {
    return this.reason === 'too_little_text' ? this.message : FAILURE_MESSAGES[this.reason];
  }
}

export class AssessmentNotFoundError extends NotFoundError {
  constructor() {
    super('Assessment not found');
  }
}

export class GenerationNotFoundError extends NotFoundError {
  constructor() {
    super('No question generation for this assessment');
  }
}

export class ResultNotFoundError extends NotFoundError {
  constructor() {
    super('Support material not found');
  }
}

export class NotRetryableError extends ConflictError {
  constructor(status: string) {
    super(`Only a failed generation can be retried (this one is ${status})`, 'not_failed');
  }
}

/** The lesson was edited after the student opened the practice: their answers are for other questions. */
export class PracticeChangedError extends ConflictError {
  constructor() {
    super('Your teacher has updated this practice. Please answer the new questions.', 'practice_changed');
  }
}

/** Result-based practice: one final attempt per round (no answer oracle by resubmitting). */
export class PracticeAttemptFinalError extends ConflictError {
  constructor() {
    super('You already submitted this practice. Press Try Again for a new set of questions.', 'practice_attempt_final');
  }
}

/** A submit for a round that Try Again (in another tab) has replaced. */
export class PracticeRoundStaleError extends ConflictError {
  /** `round`: the round the refused submit answered (from 0; told to the student as a try from 1). */
  constructor(round: number) {
    super(
      `Try ${round + 1} of this practice was started again in another window. Reload the page to answer the new questions.`,
      'practice_round_stale',
    );
  }
}

/** Try Again is bounded per result. */
export class PracticeRoundsUsedError extends ConflictError {
  constructor(max: number) {
    super(
      `You have used all ${max} practice rounds for this result. Ask your teacher for help.`,
      'practice_rounds_used',
    );
  }
}

export class PracticeLockedError extends NotFoundError {
  constructor() {
    super('Support material not found');
  }
}
