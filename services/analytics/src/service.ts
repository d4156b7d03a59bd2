// The analytics service: read models built only from the other services' events, and the calls
// that show results (docs/architecture.md).
import path from 'node:path';
import { mailQueueMigration, transportFromConfig } from '@checkpoint/mail';
import { auditTrail, privacySubscription, RetentionJob, type ServiceDefinition } from '@checkpoint/service-kit';
import { adminRouter } from './api/admin.router.ts';
import { dashboardRouter } from './api/dashboard.router.ts';
import { LiveResults } from './api/live-results.ts';
import { masteryRouter } from './api/mastery.router.ts';
import { reportsRouter } from './api/reports.router.ts';
import { commonReportRouter } from './api/common-report.router.ts';
import { resultsRouter } from './api/results.router.ts';
import { analyticsConfigSchema } from './config.ts';
import { masteryQueries } from './data-access/mastery.queries.ts';
import { resultsQueries } from './data-access/results.queries.ts';
import { analyticsUseCases } from './domain/analytics.use-case.ts';
import { DigestJob } from './domain/digest.job.ts';
import { masteryUseCases } from './domain/mastery.use-case.ts';
import { inboundSubscription } from './messaging/inbound-events.consumer.ts';
import { analyticsAuditedRoutes, analyticsPrivacy } from './messaging/privacy.consumer.ts';

export const analyticsService: ServiceDefinition<typeof analyticsConfigSchema> = {
  name: 'analytics',
  configSchema: analyticsConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  // The digest's mail queue (its 002_notifications.sql made the same table before it was shared).
  packageMigrations: [mailQueueMigration],
  create({ config, pool, logger, awaitRecent }) {
    const queries = resultsQueries(pool);
    const uc = analyticsUseCases(queries, () => new Date(), awaitRecent);
    const mastery = masteryUseCases(masteryQueries(pool), queries, awaitRecent);
    const live = new LiveResults(pool, {
      heartbeatMs: config.LIVE_HEARTBEAT_MS,
      maxStreams: config.LIVE_MAX_STREAMS,
      maxStreamsPerUser: config.LIVE_MAX_STREAMS_PER_USER,
      maxAgeMs: config.LIVE_MAX_AGE_MS,
      logger,
    });
    // Notification digests (docs/architecture.md, "Notifications") and the mail sender loop.
    const digest = new DigestJob(pool, {
      intervalMs: config.NOTIFICATION_DIGEST_MINUTES * 60_000,
      baseUrl: config.PUBLIC_URL,
      transport: transportFromConfig(config),
      logger,
    });
    const retention = new RetentionJob(pool, analyticsPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    return {
      routers: [
        resultsRouter(uc),
        masteryRouter(mastery),
        dashboardRouter(uc, live),
        reportsRouter(uc),
        adminRouter(uc),
        commonReportRouter(pool),
      ],
      // Privacy operations (docs/adr/009): audit of student-data routes, export/delete, retention.
      extra: (app) => app.use(auditTrail({ pool, service: 'analytics', routes: analyticsAuditedRoutes, logger })),
      subscriptions: [
        inboundSubscription(pool, config.ANALYTICS_CONSUMER_GROUP, config.PUBLIC_URL),
        privacySubscription(pool, analyticsPrivacy),
      ],
      start: async () => {
        await live.start();
        retention.start();
        await digest.start();
      },
      draining: () => live.endStreams(),
      stop: async () => {
        await retention.stop();
        await digest.stop();
        await live.stop();
      },
    };
  },
};
