// The analytics service: read models built only from the other services' events, and the calls
// that show results (ARCHITECTURE §3).
import path from 'node:path';
import type { ServiceDefinition } from '@checkpoint/service-kit';
import { adminRouter } from './api/admin.router.ts';
import { dashboardRouter } from './api/dashboard.router.ts';
import { LiveResults } from './api/live-results.ts';
import { reportsRouter } from './api/reports.router.ts';
import { resultsRouter } from './api/results.router.ts';
import { analyticsConfigSchema } from './config.ts';
import { resultsQueries } from './data-access/results.queries.ts';
import { analyticsUseCases } from './domain/analytics.use-cases.ts';
import { inboundSubscription } from './messaging/inbound-events.consumer.ts';

export const analyticsService: ServiceDefinition<typeof analyticsConfigSchema> = {
  name: 'analytics',
  configSchema: analyticsConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool, logger, awaitRecent }) {
    const uc = analyticsUseCases(resultsQueries(pool), () => new Date(), awaitRecent);
    const live = new LiveResults(pool, {
      heartbeatMs: config.LIVE_HEARTBEAT_MS,
      maxStreams: config.LIVE_MAX_STREAMS,
      maxAgeMs: config.LIVE_MAX_AGE_MS,
      logger,
    });
    return {
      routers: [resultsRouter(uc), dashboardRouter(uc, live), reportsRouter(uc), adminRouter(uc)],
      subscriptions: [inboundSubscription(pool, config.ANALYTICS_CONSUMER_GROUP)],
      start: () => live.start(),
      draining: () => live.endStreams(),
      stop: () => live.stop(),
    };
  },
};
