// This service's own facts (proto/generation/v1), written to the outbox in the caller's
// transaction. Key = assessment id, so one assessment's events stay in order.
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  create,
  enqueueEvent,
  GenerationFailedSchema,
  PracticeCompletedSchema,
  QuestionsGeneratedSchema,
  type SqlExecutor,
} from '@checkpoint/events';
import type { GeneratedQuestion } from '../domain/question.ts';

export const SOURCE = 'generation';

export interface JobFacts {
  id: string;
  assessmentId: string;
  tenantId: string;
}

export interface PracticeFacts {
  assessmentId: string;
  tenantId: string;
  studentId: string;
  type: string;
  scorePercent: number;
  resultId?: string;
  /** Which scored attempt this is, from 1 (set by the repository that counts it). */
  attempt?: number;
}

export function questionsGenerated(tx: SqlExecutor, job: JobFacts, provider: string, questions: GeneratedQuestion[]) {
  return enqueueEvent(tx, {
    source: SOURCE,
    schema: QuestionsGeneratedSchema,
    message: create(QuestionsGeneratedSchema, {
      jobId: job.id,
      assessmentId: job.assessmentId,
      tenantId: job.tenantId,
      provider,
      questions,
      occurredAt: timestampNow(),
    }),
    key: job.assessmentId,
    tenantId: job.tenantId,
  });
}

export function generationFailed(tx: SqlExecutor, job: JobFacts, reason: string, message: string) {
  return enqueueEvent(tx, {
    source: SOURCE,
    schema: GenerationFailedSchema,
    message: create(GenerationFailedSchema, {
      jobId: job.id,
      assessmentId: job.assessmentId,
      tenantId: job.tenantId,
      reason,
      message,
      occurredAt: timestampNow(),
    }),
    key: job.assessmentId,
    tenantId: job.tenantId,
  });
}

export function practiceCompleted(tx: SqlExecutor, p: PracticeFacts) {
  return enqueueEvent(tx, {
    source: SOURCE,
    schema: PracticeCompletedSchema,
    message: create(PracticeCompletedSchema, {
      assessmentId: p.assessmentId,
      tenantId: p.tenantId,
      studentId: p.studentId,
      type: p.type,
      scorePercent: p.scorePercent,
      resultId: p.resultId ?? '',
      occurredAt: timestampNow(),
      attempt: p.attempt ?? 0,
    }),
    key: p.assessmentId,
    tenantId: p.tenantId,
  });
}
