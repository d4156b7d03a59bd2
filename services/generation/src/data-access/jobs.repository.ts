// Generation jobs: created in the inbox transaction of AssessmentCreated, claimed by the worker
// with FOR UPDATE SKIP LOCKED (many instances may run), finished together with their event.
import { randomUUID } from 'node:crypto';
import type { FailureReason } from '../domain/errors.ts';
import type { GeneratedQuestion, RequestedType, RequestStandard } from '../domain/question.ts';
import { generationFailed, questionsGenerated } from '../messaging/generation-events.publisher.ts';
import type { Db, Tx } from './prisma.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface Job {
  id: string;
  assessmentId: string;
  tenantId: string;
  teacherId: string;
  status: JobStatus;
  provider: string;
  questionType: RequestedType;
  questionCount: number;
  attempts: number;
  errorReason: string | null;
  errorMessage: string | null;
  leaseId: string | null;
  updatedAt: Date;
  /** The chosen standards the items are written for (checked when the job was queued). */
  standards: RequestStandard[];
}

/** A claimed job: the lease proves this worker still owns it when it finishes. */
export interface ClaimedJob extends Job {
  leaseId: string;
}

const toJob = (r: Record<string, unknown>): Job => ({
  id: r.id as string,
  assessmentId: r.assessment_id as string,
  tenantId: r.tenant_id as string,
  teacherId: r.teacher_id as string,
  status: r.status as JobStatus,
  provider: r.provider as string,
  questionType: r.question_type as RequestedType,
  questionCount: r.question_count as number,
  attempts: r.attempts as number,
  errorReason: (r.error_reason as string | null) ?? null,
  errorMessage: (r.error_message as string | null) ?? null,
  leaseId: (r.lease_id as string | null) ?? null,
  updatedAt: r.updated_at as Date,
  standards: standardsOf(r.standards),
});

/** The jobs' standards column as Prisma or a raw query hands it (parsed, or text). */
const standardsOf = (v: unknown): RequestStandard[] =>
  (typeof v === 'string' ? (JSON.parse(v) as RequestStandard[]) : (v as RequestStandard[] | null)) ?? [];

export async function enqueueJob(
  tx: Tx,
  job: {
    assessmentId: string;
    tenantId: string;
    teacherId: string;
    provider: string;
    questionType: string;
    questionCount: number;
    standards: RequestStandard[];
  },
): Promise<void> {
  const { standards, ...rest } = job;
  await tx.generationJob.upsert({
    where: { assessmentId: job.assessmentId },
    create: { id: randomUUID(), status: 'queued', ...rest, standards: standards.map((s) => ({ ...s })) },
    update: {},
  });
}

export type JobsRepository = ReturnType<typeof jobsRepository>;

export function jobsRepository(db: Db) {
  return {
    async findByAssessment(assessmentId: string): Promise<Job | undefined> {
      const row = await db.generationJob.findUnique({ where: { assessmentId } });
      return row ? (row as unknown as Job) : undefined;
    },

    /**
     * Claims up to `limit` runnable jobs: queued and due, or running but stale (a worker died).
     * Each claim counts as an attempt.
     */
    async claim(limit: number, staleAfterMs: number): Promise<ClaimedJob[]> {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
        `update generation_jobs j
            set status = 'running', attempts = j.attempts + 1, lease_id = gen_random_uuid(),
                locked_at = now(), updated_at = now()
          where j.id in (
            select id from generation_jobs
             where (status = 'queued' and next_run_at <= now())
                or (status = 'running' and locked_at < now() - make_interval(secs => $2::double precision / 1000))
             order by next_run_at, created_at
             limit $1
             for update skip locked)
        returning j.*`,
        limit,
        staleAfterMs,
      );
      return rows.map(toJob) as ClaimedJob[];
    },

    /**
     * The running worker's heartbeat: a job is stale (claimable by another replica) only once its
     * worker stopped renewing it, not when the model is merely slow. False when the lease was lost.
     */
    async renew(job: ClaimedJob): Promise<boolean> {
      const n = await db.$executeRawUnsafe(
        `update generation_jobs set locked_at = now() where id = $1::uuid and lease_id = $2::uuid and status = 'running'`,
        job.id,
        job.leaseId,
      );
      return n > 0;
    },

    /** Back to the queue without counting the attempt (e.g. the teacher's rate limit). */
    async defer(job: ClaimedJob, delayMs: number): Promise<void> {
      await db.$executeRawUnsafe(
        `update generation_jobs set status = 'queued', attempts = greatest(attempts - 1, 0), lease_id = null,
                next_run_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
          where id = $1::uuid and lease_id = $3::uuid`,
        job.id,
        delayMs,
        job.leaseId,
      );
    },

    /** Stores success and QuestionsGenerated in one transaction; false when the lease was lost. */
    async succeed(job: ClaimedJob, provider: string, questions: GeneratedQuestion[]): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const n = await tx.$executeRawUnsafe(
          `update generation_jobs set status = 'succeeded', provider = $3, error_reason = null, error_message = null,
                  lease_id = null, finished_at = now(), updated_at = now()
            where id = $1::uuid and lease_id = $2::uuid and status = 'running'`,
          job.id,
          job.leaseId,
          provider,
        );
        if (n === 0) return false;
        await questionsGenerated(tx, job, provider, questions);
        return true;
      });
    },

    /** An attempt failed: queued again after `retryInMs`, or (undefined) failed for good with the event. */
    async fail(
      job: ClaimedJob,
      reason: FailureReason,
      message: string,
      retryInMs: number | undefined,
    ): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const n = await tx.$executeRawUnsafe(
          `update generation_jobs
              set status = $3, error_reason = $4, error_message = $5, lease_id = null, updated_at = now(),
                  next_run_at = now() + make_interval(secs => coalesce($6::double precision, 0) / 1000),
                  finished_at = case when $3 = 'failed' then now() else null end
            where id = $1::uuid and lease_id = $2::uuid and status = 'running'`,
          job.id,
          job.leaseId,
          retryInMs === undefined ? 'failed' : 'queued',
          reason,
          message,
          retryInMs ?? null,
        );
        if (n === 0) return false;
        if (retryInMs === undefined) await generationFailed(tx, job, reason, message);
        return true;
      });
    },

    /** A failed job queued again from scratch; the job as it is now (or undefined). */
    async requeueFailed(assessmentId: string, provider: string): Promise<Job | undefined> {
      // The requeued row as this update wrote it: a worker may claim it the moment it is queued,
      // and a read after the update would answer with that claim instead.
      const [row] = await db.generationJob.updateManyAndReturn({
        where: { assessmentId, status: 'failed' },
        data: {
          status: 'queued',
          attempts: 0,
          errorReason: null,
          errorMessage: null,
          provider,
          nextRunAt: new Date(),
          finishedAt: null,
          updatedAt: new Date(),
        },
      });
      return row ? (row as unknown as Job) : undefined;
    },
  };
}
