// The class service: classes, join codes, memberships and archive state (docs/architecture.md).
import path from 'node:path';
import { auditTrail, privacySubscription, RetentionJob, type ServiceDefinition } from '@checkpoint/service-kit';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { classesRouter } from './api/classes.router.ts';
import { mountInternalRoutes } from './api/internal.routes.ts';
import { enrolmentRouter, joinCodeLookupRouter } from './api/enrolment.router.ts';
import { classConfigSchema } from './config.ts';
import { classesRepository } from './data-access/classes.repository.ts';
import { createPrisma } from './data-access/prisma.ts';
import { classUseCases } from './domain/classes.use-case.ts';
import { classEventsPublisher } from './messaging/class-events.publisher.ts';
import { inboundSubscription } from './messaging/inbound-events.consumer.ts';
import { classAuditedRoutes, classPrivacy } from './messaging/privacy.consumer.ts';

export const classService: ServiceDefinition<typeof classConfigSchema> = {
  name: 'class',
  configSchema: classConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool, logger }) {
    const schema = config.DATABASE_SCHEMA ?? 'class';
    const db = createPrisma(pool, schema);
    const classes = classUseCases({ classes: classesRepository(db, classEventsPublisher()) });
    const limiter = (keyPrefix: string, points: number) =>
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
    const joinLimiter = limiter('join', config.RATE_LIMIT_JOIN_PER_MINUTE);
    const lookupLimiter = limiter('join_lookup_ip', config.RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE);
    const retention = new RetentionJob(pool, classPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    return {
      // The join-code check first: the classes router's GET /api/classes/:id would take its path.
      routers: [
        joinCodeLookupRouter(classes, lookupLimiter),
        classesRouter(classes),
        enrolmentRouter(classes, joinLimiter),
      ],
      // Privacy operations (docs/adr/009): audit of student-data routes, export/delete, retention.
      extra: (app) => {
        app.use(auditTrail({ pool, service: 'class', routes: classAuditedRoutes, logger }));
        // The integrations service's calls (LTI: a course's class and its members).
        mountInternalRoutes(app, classes);
      },
      subscriptions: [inboundSubscription(db), privacySubscription(pool, classPrivacy)],
      start: async () => retention.start(),
      stop: async () => {
        await retention.stop();
        await db.$disconnect();
      },
    };
  },
};
