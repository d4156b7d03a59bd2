// The generation service: generation jobs and their worker, practice material, result-based
// practice and teacher recommendations (docs/architecture.md).
import path from 'node:path';
import {
  auditTrail,
  privacySubscription,
  RetentionJob,
  TooManyRequestsError,
  type ServiceDefinition,
} from '@checkpoint/service-kit';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { generationRouter } from './api/generation.router.ts';
import { practiceRouter } from './api/practice.router.ts';
import { generationConfigSchema } from './config.ts';
import { assessmentsRepository } from './data-access/assessments.repository.ts';
import { jobsRepository } from './data-access/jobs.repository.ts';
import { practiceRepository } from './data-access/practice.repository.ts';
import { createPrisma } from './data-access/prisma.ts';
import { accessRules } from './domain/access.ts';
import { generationUseCases } from './domain/generation.use-case.ts';
import { practiceUseCases } from './domain/practice.use-case.ts';
import { eventsSubscription } from './messaging/events.consumer.ts';
import { generationAuditedRoutes, generationPrivacy } from './messaging/privacy.consumer.ts';
import { offlineProvider } from './providers/offline.provider.ts';
import type { Provider } from './providers/provider.ts';
import { selectProvider } from './providers/select.ts';
import { GenerationWorker } from './worker/generation.worker.ts';

export const generationService: ServiceDefinition<typeof generationConfigSchema> = {
  name: 'generation',
  configSchema: generationConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool, logger, awaitRecent }) {
    const schema = config.DATABASE_SCHEMA ?? 'generation';
    const db = createPrisma(pool, schema);
    const provider = selectProvider(config);
    const offline = provider.name === 'offline' ? provider : offlineProvider();
    const providerFor = (name: string): Provider => (name === provider.name ? provider : offline);
    const limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      schemaName: schema,
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: 'generation',
      points: config.RATE_LIMIT_GENERATION_PER_MINUTE,
      duration: 60,
    });
    /** 0 when the teacher may ask the model now, else milliseconds until they may. */
    const budgetWait = async (teacherId: string, p: Provider): Promise<number> => {
      // The offline writer costs nothing: only model calls are budgeted.
      if (p.name === 'offline') return 0;
      try {
        await limiter.consume(teacherId);
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, err.msBeforeNext);
        throw err;
      }
    };

    const assessments = assessmentsRepository(db);
    const jobs = jobsRepository(db);
    const access = accessRules(assessments, awaitRecent);
    const worker = new GenerationWorker({
      jobs,
      assessments,
      providerFor,
      budgetWait,
      concurrency: config.GENERATION_CONCURRENCY,
      pollMs: config.GENERATION_POLL_MS,
      maxAttempts: config.GENERATION_MAX_ATTEMPTS,
      retryDelayMs: config.GENERATION_RETRY_DELAY_MS,
      staleAfterMs: config.GENERATION_STALE_AFTER_MS,
      logger,
    });
    const generation = generationUseCases({
      access,
      jobs,
      maxAttempts: config.GENERATION_MAX_ATTEMPTS,
      providerName: provider.name,
      limit: async (teacherId) => {
        try {
          await limiter.consume(teacherId);
        } catch (err) {
          if (err instanceof RateLimiterRes)
            throw new TooManyRequestsError(
              'Too many generation requests. Please wait a minute and try again.',
              Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
            );
          throw err;
        }
      },
      wakeWorker: () => worker.wake(),
    });
    const practice = practiceUseCases({
      access,
      assessments,
      practice: practiceRepository(db),
      provider,
      offline,
      mayCallModel: async (teacherId) => (await budgetWait(teacherId, provider)) === 0,
      onProviderError: (err) => logger.warn({ err }, 'model failed; offline writer used'),
    });
    logger.info({ provider: provider.name }, 'generation provider');
    const retention = new RetentionJob(pool, generationPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    return {
      routers: [generationRouter(generation), practiceRouter(practice)],
      // Privacy operations (docs/adr/009): audit of a student's practice read by a teacher.
      extra: (app) => app.use(auditTrail({ pool, service: 'generation', routes: generationAuditedRoutes, logger })),
      subscriptions: [
        eventsSubscription(db, { providerName: provider.name, afterJobQueued: () => worker.wake() }),
        // Privacy operations (docs/adr/009): export/delete of a student's rows, retention.
        privacySubscription(pool, generationPrivacy),
      ],
      start: async () => {
        if (config.GENERATION_WORKER) worker.start();
        retention.start();
      },
      stop: async () => {
        await retention.stop();
        await worker.stop();
        await db.$disconnect();
      },
    };
  },
};
