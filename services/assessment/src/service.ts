// The assessment service: assessments, questions, responses, results and scoring (its data and
// events: docs/architecture.md).
import path from 'node:path';
import {
  auditTrail,
  PollingLoop,
  privacySubscription,
  RetentionJob,
  type ServiceDefinition,
} from '@checkpoint/service-kit';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { assessmentsRouter } from './api/assessments.router.ts';
import { bankRouter } from './api/bank.router.ts';
import { frameworkUploadBody, standardsRouter } from './api/standards.router.ts';
import { qtiRouter } from './api/qti.router.ts';
import { accommodationsRouter } from './api/accommodations.router.ts';
import { accommodationsRepository } from './data-access/accommodations.repository.ts';
import { accommodationsUseCases } from './domain/accommodations.ts';
import { qtiUseCases } from './domain/qti.use-case.ts';
import { commonAssessmentsRouter } from './api/common-assessments.router.ts';
import { takingRouter } from './api/taking.router.ts';
import { gradingRouter } from './api/grading.router.ts';
import { gradingRepository } from './data-access/grading.repository.ts';
import { gradingUseCases } from './domain/grading.use-case.ts';
import { assessmentConfigSchema } from './config.ts';
import { bankRepository } from './data-access/bank.repository.ts';
import { createPrisma } from './data-access/prisma.ts';
import { standardsRepository } from './data-access/standards.repository.ts';
import { studentAttemptsRepository } from './data-access/student-attempts.repository.ts';
import { teacherAssessmentsRepository } from './data-access/teacher-assessments.repository.ts';
import { commonAssessmentsRepository } from './data-access/common-assessments.repository.ts';
import { assessmentUseCases } from './domain/assessments.use-case.ts';
import { bankUseCases } from './domain/bank.use-case.ts';
import { standardsLimits, standardsUseCases } from './domain/standards.use-case.ts';
import { commonAssessmentUseCases } from './domain/common-assessments.use-case.ts';
import { assessmentEventsPublisher } from './messaging/assessment-events.publisher.ts';
import { inboundSubscription } from './messaging/inbound-events.consumer.ts';
import { assessmentAuditedRoutes, assessmentPrivacy } from './messaging/privacy.consumer.ts';

export const assessmentService: ServiceDefinition<typeof assessmentConfigSchema> = {
  name: 'assessment',
  configSchema: assessmentConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool, awaitRecent, logger }) {
    const schema = config.DATABASE_SCHEMA ?? 'assessment';
    const db = createPrisma(pool, schema);
    const events = assessmentEventsPublisher();
    const teacherAssessments = teacherAssessmentsRepository(db, pool);
    const studentAttempts = studentAttemptsRepository(db, pool);
    const uc = assessmentUseCases({
      assessments: teacherAssessments,
      attempts: studentAttempts,
      events,
      awaitRecent,
    });
    // Creating starts a generation job: limited per teacher and per client address, in Postgres so
    // that every instance shares the count.
    const createLimiter = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        schemaName: schema,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration: 60,
      });
    const createLimits = {
      perTeacher: createLimiter('create_teacher', config.RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE),
      perAddress: createLimiter('create_address', config.RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE),
    };
    const retention = new RetentionJob(pool, assessmentPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    // Attempts of assessments past their close time are submitted for their students (a batch a
    // pass; the next pass at once while batches are full). Every replica may run it: the result's
    // unique key and the submission lock decide between two of them.
    const closeSweep: PollingLoop = new PollingLoop({
      name: 'close sweep',
      pass: () =>
        uc.submitClosedAttempts(100, {
          running: () => closeSweep.running,
          failed: (err, attempt) => logger.warn({ err, ...attempt }, 'close sweep: an attempt could not be submitted'),
        }),
      intervalMs: config.ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS,
      backoffMs: (failures) => Math.min(60_000, config.ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS * 2 ** failures),
      onError: (err, failures) => logger.warn({ err, failures }, 'close sweep failed'),
    });
    const standards = standardsUseCases(standardsRepository(pool), standardsLimits(config));
    return {
      routers: [
        assessmentsRouter(uc, createLimits),
        takingRouter(uc),
        gradingRouter(
          gradingUseCases({
            grading: gradingRepository(pool),
            assessments: teacherAssessments,
            attempts: studentAttempts,
            events,
          }),
        ),
        bankRouter(bankUseCases({ bank: bankRepository(pool), assessments: teacherAssessments, questions: uc })),
        standardsRouter(standards, config.STANDARDS_PACKAGE_LIMIT_BYTES),
        qtiRouter(qtiUseCases({ assessments: teacherAssessments, events }), config.QTI_PACKAGE_LIMIT_BYTES),
        accommodationsRouter(accommodationsUseCases(accommodationsRepository(pool), events)),
        commonAssessmentsRouter(
          commonAssessmentUseCases({
            common: commonAssessmentsRepository(db),
            assessments: teacherAssessments,
            events,
          }),
        ),
      ],
      largeBodies: [frameworkUploadBody(config.STANDARDS_PACKAGE_LIMIT_BYTES)],
      // Privacy operations (docs/adr/009): audit of student-data routes, export/delete, retention.
      extra: (app) => app.use(auditTrail({ pool, service: 'assessment', routes: assessmentAuditedRoutes, logger })),
      subscriptions: [inboundSubscription(db, events), privacySubscription(pool, assessmentPrivacy)],
      start: async () => {
        await retention.start();
        await closeSweep.start();
      },
      stop: async () => {
        await closeSweep.stop();
        await retention.stop();
        await db.$disconnect();
      },
    };
  },
};
