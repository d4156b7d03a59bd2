// Runs generation jobs outside any HTTP request: claims due jobs (FOR UPDATE SKIP LOCKED, so
// several instances share the queue), at most `concurrency` at once, and finishes each with
// QuestionsGenerated, a later attempt, or GenerationFailed once attempts are spent (or at once
// for quota). Woken by new jobs; polls as a fallback (a PollingLoop).
//
// Several replicas (docs/scale-out.md): while a job runs, its worker renews the job's lease every
// third of `staleAfterMs`, so only a job whose worker died (no renewal for `staleAfterMs`) is
// claimed again by another replica, never one whose model call is merely slow. A worker that lost
// its lease (it was partitioned away that long) finishes the call, but its result is discarded:
// the job's outcome and its event are written once, by the lease holder.
import { PollingLoop } from '@checkpoint/service-kit';
import type { AssessmentsRepository } from '../data-access/assessments.repository.ts';
import type { ClaimedJob, JobsRepository } from '../data-access/jobs.repository.ts';
import { GenerationError } from '../domain/errors.ts';
import { isValidSet } from '../domain/question.ts';
import type { Provider } from '../providers/provider.ts';

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface GenerationWorkerDeps {
  jobs: JobsRepository;
  assessments: AssessmentsRepository;
  /** The provider a job names; offline when that provider is not configured any more. */
  providerFor: (name: string) => Provider;
  /** Milliseconds to wait when the teacher's model budget is spent; 0 to go ahead. */
  budgetWait: (teacherId: string, provider: Provider) => Promise<number>;
  concurrency: number;
  pollMs: number;
  maxAttempts: number;
  retryDelayMs: number;
  staleAfterMs: number;
  logger: WorkerLogger;
}

export class GenerationWorker {
  private readonly running = new Set<Promise<void>>();
  private readonly loop: PollingLoop;

  constructor(private readonly d: GenerationWorkerDeps) {
    this.loop = new PollingLoop({
      name: 'generation worker',
      pass: () => this.tick(),
      intervalMs: d.pollMs,
      onError: (err) => d.logger.error({ err }, 'generation worker: claim failed'),
    });
  }

  start(): void {
    void this.loop.start();
  }

  /** Look for work now (a job was queued or one finished). */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  /** Resolves when no job is running (tests). */
  async idle(): Promise<void> {
    while (this.running.size || this.loop.current) await Promise.allSettled([...this.running, this.loop.current]);
  }

  private async tick(): Promise<void> {
    const free = this.d.concurrency - this.running.size;
    if (free <= 0) return;
    const claimed = await this.d.jobs.claim(free, this.d.staleAfterMs);
    for (const job of claimed) {
      const p: Promise<void> = this.run(job)
        .catch((err) => this.d.logger.error({ err, jobId: job.id }, 'generation worker: job bookkeeping failed'))
        .finally(() => {
          this.running.delete(p);
          this.wake();
        });
      this.running.add(p);
    }
  }

  private async run(job: ClaimedJob): Promise<void> {
    const stopBeating = this.keepLease(job);
    try {
      await this.runClaimed(job);
    } finally {
      stopBeating();
    }
  }

  /** Renews the lease until stopped; a failed renewal is tried again at the next beat. */
  private keepLease(job: ClaimedJob): () => void {
    let over = false;
    const beat = setInterval(
      () => {
        this.d.jobs.renew(job).then(
          (held) => {
            if (held || over) return;
            over = true;
            clearInterval(beat);
            this.d.logger.warn({ jobId: job.id }, 'generation worker: lease lost, the result will be discarded');
          },
          (err: unknown) => this.d.logger.warn({ err, jobId: job.id }, 'generation worker: lease renewal failed'),
        );
      },
      Math.max(1, Math.floor(this.d.staleAfterMs / 3)),
    );
    beat.unref();
    return () => {
      // A renewal still on its way after the job finished finds it finished: not a lost lease.
      over = true;
      clearInterval(beat);
    };
  }

  private async runClaimed(job: ClaimedJob): Promise<void> {
    const assessment = await this.d.assessments.find(job.assessmentId);
    if (!assessment) {
      await this.d.jobs.fail(job, 'provider_error', 'The assessment no longer exists', undefined);
      return;
    }
    const provider = this.d.providerFor(job.provider);
    const wait = await this.d.budgetWait(job.teacherId, provider);
    if (wait > 0) {
      await this.d.jobs.defer(job, wait);
      return;
    }
    const request = {
      content: assessment.content || assessment.topic || assessment.title,
      questionType: job.questionType,
      count: job.questionCount,
      topic: assessment.topic || assessment.standard,
      standards: job.standards,
    };
    try {
      const questions = await provider.generateQuestions(request);
      // Whatever a provider says, only a complete, valid set is ever stored, each item aligned
      // only to the standards the teacher chose (an invented code is never stored).
      if (!isValidSet(questions, request))
        throw new GenerationError('invalid_output', 'provider returned an invalid set');
      if (!(await this.d.jobs.succeed(job, provider.name, questions))) {
        this.d.logger.warn({ jobId: job.id }, 'generation worker: lease lost before the result was stored; discarded');
        return;
      }
      this.d.logger.info({ jobId: job.id, provider: provider.name, count: questions.length }, 'questions generated');
    } catch (err) {
      const failure = err instanceof GenerationError ? err : new GenerationError('provider_error', String(err));
      const again = failure.retryable && job.attempts < this.d.maxAttempts;
      const delay = again ? this.d.retryDelayMs * 2 ** (job.attempts - 1) : undefined;
      await this.d.jobs.fail(job, failure.reason, failure.userMessage, delay);
      this.d.logger.warn(
        { jobId: job.id, reason: failure.reason, detail: failure.message, attempt: job.attempts, willRetry: again },
        'generation attempt failed',
      );
    }
  }
}
