// Two generation workers (two replicas) on one real database: a job whose model call is slow stays
// with its worker (the lease is renewed), a job whose worker died is run again by the other one,
// and a result that comes back after the lease was lost is discarded. Either way the job ends
// once, with one QuestionsGenerated event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssessment, LESSON_TEXT, outboxFor, startGenerationService, type Harness } from '../../test/helpers.ts';
import { assessmentsRepository } from '../data-access/assessments.repository.ts';
import { jobsRepository, type JobsRepository } from '../data-access/jobs.repository.ts';
import { createPrisma, type Db } from '../data-access/prisma.ts';
import { offlineProvider } from '../providers/offline.provider.ts';
import type { Provider } from '../providers/provider.ts';
import { GenerationWorker, type WorkerLogger } from './generation.worker.ts';

// Short for a test, yet long enough that a loaded CI machine (a renewal query or the offline
// writer's work held up for a second) does not make a live worker's lease look stale.
const STALE_AFTER_MS = 2_000;
const QUESTIONS_GENERATED = 'checkpoint.generation.v1.QuestionsGenerated';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The offline writer, counting its calls, each held until `release()`. */
function heldProvider(): Provider & { calls: number; release(): void } {
  const offline = offlineProvider();
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    ...offline,
    name: offline.name,
    calls: 0,
    async generateQuestions(request) {
      this.calls++;
      await gate;
      return offline.generateQuestions(request);
    },
    release: () => open(),
  };
}

/** The offline writer, counting its calls. */
function countingProvider(): Provider & { calls: number } {
  const offline = offlineProvider();
  return {
    ...offline,
    name: offline.name,
    calls: 0,
    async generateQuestions(request) {
      this.calls++;
      return offline.generateQuestions(request);
    },
  };
}

function recordingLogger(): WorkerLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    info: () => {},
    warn: (_obj, msg) => warnings.push(msg),
    error: (_obj, msg) => warnings.push(msg),
  };
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(25);
  }
}

describe('two generation workers sharing one queue', () => {
  let h: Harness;
  let db: Db;
  let jobs: JobsRepository;
  const workers: GenerationWorker[] = [];
  /** Held model calls, released at the end whatever happened (a worker's stop() waits for them). */
  const held: { release(): void }[] = [];

  beforeAll(async () => {
    // The service's own worker is off: the test runs the two replicas' workers itself.
    h = await startGenerationService({ GENERATION_WORKER: 'false' });
    db = createPrisma(h.sql, 'generation');
    jobs = jobsRepository(db);
    // The offline writer's first set loads and compiles its taggers (about a second here), holding
    // the event loop longer than STALE_AFTER_MS. What these tests hold is a model call's wait, so
    // the writer is warmed before them.
    await offlineProvider().generateQuestions({ content: LESSON_TEXT, questionType: 'mixed', count: 5 });
  });
  afterAll(async () => {
    for (const p of held) p.release();
    await Promise.all(workers.map((w) => w.stop()));
    await db?.$disconnect();
    await h?.stop();
  });

  function worker(
    provider: Provider,
    logger: WorkerLogger,
    { jobsOf = jobs, concurrency = 2 }: { jobsOf?: JobsRepository; concurrency?: number } = {},
  ): GenerationWorker {
    if ('release' in provider) held.push(provider as Provider & { release(): void });
    const w = new GenerationWorker({
      jobs: jobsOf,
      assessments: assessmentsRepository(db),
      providerFor: () => provider,
      budgetWait: async () => 0,
      concurrency,
      pollMs: 50,
      maxAttempts: 3,
      retryDelayMs: 0,
      staleAfterMs: STALE_AFTER_MS,
      logger,
    });
    workers.push(w);
    return w;
  }

  const jobOf = async (assessmentId: string) =>
    (
      await h.sql.query<{ status: string; attempts: number }>(
        'select status, attempts from generation_jobs where assessment_id = $1',
        [assessmentId],
      )
    ).rows[0];

  const generatedEvents = async (assessmentId: string) =>
    (await outboxFor(h, assessmentId)).filter((e) => e.type === QUESTIONS_GENERATED);

  it('when one worker’s model call outlasts the stale time, then its renewed lease keeps the other worker off the job and it runs once', async () => {
    const lesson = await createAssessment(h);
    const slow = heldProvider();
    const a = worker(slow, recordingLogger());
    a.start();
    await until(
      'worker A to claim the job',
      () => jobOf(lesson.assessmentId),
      (j) => j?.status === 'running',
    );
    await until(
      'worker A to call its model',
      async () => slow.calls,
      (n) => n === 1,
    );

    const other = countingProvider();
    const b = worker(other, recordingLogger());
    b.start();
    // Twice the stale time: without the heartbeat, B would have claimed the job by now.
    await sleep(2 * STALE_AFTER_MS);
    expect(other.calls).toBe(0);
    expect(await jobOf(lesson.assessmentId)).toEqual({ status: 'running', attempts: 1 });

    slow.release();
    const done = await until(
      'the job to finish',
      () => jobOf(lesson.assessmentId),
      (j) => j?.status === 'succeeded',
    );
    expect(done?.attempts).toBe(1);
    expect(slow.calls).toBe(1);
    expect(other.calls).toBe(0);
    expect(await generatedEvents(lesson.assessmentId)).toHaveLength(1);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('when a worker dies mid-job, then the other runs the job once more after the stale time, and the dead one’s late result is discarded', async () => {
    const lesson = await createAssessment(h);
    // "Dies": it stops renewing its lease and its model call never comes back (until released
    // below, as a worker cut off from the database for longer than the stale time would). One job
    // at a time, so that it does not claim the stale job again itself, as a dead process would not.
    const stuck = heldProvider();
    const deadLogger = recordingLogger();
    const dead = worker(stuck, deadLogger, {
      jobsOf: { ...jobs, renew: () => new Promise<boolean>(() => {}) },
      concurrency: 1,
    });
    dead.start();
    await until(
      'the doomed worker to claim the job',
      () => jobOf(lesson.assessmentId),
      (j) => j?.status === 'running',
    );
    await until(
      'the doomed worker to call its model',
      async () => stuck.calls,
      (n) => n === 1,
    );

    const other = countingProvider();
    const survivor = worker(other, recordingLogger());
    const claimedAt = Date.now();
    survivor.start();
    const done = await until(
      'the other worker to finish the job',
      () => jobOf(lesson.assessmentId),
      (j) => j?.status === 'succeeded',
    );
    // Not before the stale time: a live worker's job is never taken.
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(STALE_AFTER_MS / 2);
    expect(done?.attempts).toBe(2);
    expect(other.calls).toBe(1);
    const [event] = await generatedEvents(lesson.assessmentId);
    expect(await generatedEvents(lesson.assessmentId)).toHaveLength(1);

    // The dead worker's call comes back: its result is not stored and no second event is written.
    stuck.release();
    await dead.stop();
    expect(deadLogger.warnings).toContain('generation worker: lease lost before the result was stored; discarded');
    expect(await jobOf(lesson.assessmentId)).toEqual({ status: 'succeeded', attempts: 2 });
    const after = await generatedEvents(lesson.assessmentId);
    expect(after).toHaveLength(1);
    expect(after[0]!.message.jobId).toBe(event!.message.jobId);
    await survivor.stop();
  });
});
