// The assessment service: assessments, questions, responses, results and scoring (ARCHITECTURE §3).
import path from 'node:path';
import type { ServiceDefinition } from '@checkpoint/service-kit';
import { assessmentsRouter } from './api/assessments.router.ts';
import { takingRouter } from './api/taking.router.ts';
import { assessmentConfigSchema } from './config.ts';
import { assessmentsRepository } from './data-access/assessments.repository.ts';
import { createPrisma } from './data-access/prisma.ts';
import { assessmentUseCases } from './domain/assessments.use-cases.ts';
import { assessmentEventsPublisher } from './messaging/assessment-events.publisher.ts';
import { inboundSubscription } from './messaging/inbound-events.consumer.ts';

export const assessmentService: ServiceDefinition<typeof assessmentConfigSchema> = {
  name: 'assessment',
  configSchema: assessmentConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool }) {
    const schema = config.DATABASE_SCHEMA ?? 'assessment';
    const db = createPrisma(pool, schema);
    const events = assessmentEventsPublisher();
    const uc = assessmentUseCases({ assessments: assessmentsRepository(db, events, pool) });
    return {
      routers: [assessmentsRouter(uc), takingRouter(uc)],
      subscriptions: [inboundSubscription(db, events)],
      stop: () => db.$disconnect(),
    };
  },
};
