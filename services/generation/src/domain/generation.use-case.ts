// Job status and retry for the assessment's teacher (the job itself runs in the worker).
import type { Caller } from '@checkpoint/service-kit';
import type { Job, JobsRepository } from '../data-access/jobs.repository.ts';
import type { AccessRules } from './access.ts';
import { FAILURE_MESSAGES, GenerationNotFoundError, NotRetryableError, type FailureReason } from './errors.ts';

export type QuestionSource = 'model' | 'text';
export const questionSourceOf = (provider: string): QuestionSource => (provider === 'openai' ? 'model' : 'text');

export interface JobView {
  jobId: string;
  assessmentId: string;
  status: Job['status'];
  provider: string;
  /** 'model' when a language model writes the questions, 'text' when rules build them from the text. */
  questionSource: QuestionSource;
  attempts: number;
  maxAttempts: number;
  questionType: string;
  questionCount: number;
  updatedAt: string;
  error?: { reason: string; message: string };
}

export function toJobView(job: Job, maxAttempts: number): JobView {
  const reason = job.errorReason as FailureReason | null;
  return {
    jobId: job.id,
    assessmentId: job.assessmentId,
    status: job.status,
    provider: job.provider,
    questionSource: questionSourceOf(job.provider),
    attempts: job.attempts,
    maxAttempts,
    questionType: job.questionType,
    questionCount: job.questionCount,
    updatedAt: job.updatedAt.toISOString(),
    ...(job.status === 'failed' && reason
      ? {
          error: {
            reason,
            // A too-short text's message says how many questions it gave; the others are fixed.
            message:
              (reason === 'too_little_text' ? job.errorMessage : FAILURE_MESSAGES[reason]) ??
              job.errorMessage ??
              FAILURE_MESSAGES.provider_error,
          },
        }
      : {}),
  };
}

export interface GenerationUseCasesDeps {
  access: AccessRules;
  jobs: JobsRepository;
  maxAttempts: number;
  /** The provider new attempts use. */
  providerName: string;
  /** Throws TooManyRequestsError when the teacher asked too often. */
  limit: (teacherId: string) => Promise<void>;
  wakeWorker: () => void;
}

export type GenerationUseCases = ReturnType<typeof generationUseCases>;

export function generationUseCases(d: GenerationUseCasesDeps) {
  return {
    async status(caller: Caller, assessmentId: string): Promise<JobView> {
      await d.access.ownedAssessment(caller, assessmentId);
      const job = await d.jobs.findByAssessment(assessmentId);
      if (!job) throw new GenerationNotFoundError();
      return toJobView(job, d.maxAttempts);
    },

    async retry(caller: Caller, assessmentId: string): Promise<JobView> {
      await d.access.ownedAssessment(caller, assessmentId);
      const job = await d.jobs.findByAssessment(assessmentId);
      if (!job) throw new GenerationNotFoundError();
      if (job.status !== 'failed') throw new NotRetryableError(job.status);
      await d.limit(caller.userId);
      const queued = await d.jobs.requeueFailed(assessmentId, d.providerName);
      if (!queued) throw new GenerationNotFoundError();
      d.wakeWorker();
      return toJobView(queued, d.maxAttempts);
    },
  };
}
