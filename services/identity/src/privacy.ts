// Wiring of the privacy operations in the identity service (docs/adr/009-privacy-operations.md):
// the admin's routes, the subscription to the other services' answers and audit entries, and the
// retention job (audit entries and requests past the district's period).
import { auditTrail, RetentionJob, type AuditedRoute, type Logger } from '@checkpoint/service-kit';
import type pg from 'pg';
import { privacyRouter } from './api/privacy.router.ts';
import { identityRetention } from './domain/privacy/privacy.use-case.ts';
import { privacyAnswersSubscription } from './messaging/privacy.consumer.ts';

/** District administration routes that read or change people's data (audited like the other services'). */
const IDENTITY_AUDITED_ROUTES: AuditedRoute[] = [
  { method: 'GET', path: '/api/district/users', action: 'read' },
  { method: 'PATCH', path: '/api/district/users/:id', action: 'change' },
  { method: 'DELETE', path: '/api/district/users/:id', action: 'change' },
  { method: 'PUT', path: '/api/district/students/:id/sign-in', action: 'change' },
];

export function privacyWiring(ctx: {
  name: string;
  pool: pg.Pool;
  logger: Logger;
  config: { PRIVACY_RETENTION_INTERVAL_MS: number };
}) {
  const job = new RetentionJob(
    ctx.pool,
    { service: ctx.name, retention: identityRetention },
    {
      intervalMs: ctx.config.PRIVACY_RETENTION_INTERVAL_MS,
      logger: ctx.logger,
      tenantsSql: 'select id as tenant_id, retention_days from tenants where retention_days is not null',
    },
  );
  return {
    router: privacyRouter({ pool: ctx.pool, source: ctx.name }),
    /** Records role changes and removals of the district's users in the audit log (via the outbox). */
    audit: auditTrail({ pool: ctx.pool, service: ctx.name, routes: IDENTITY_AUDITED_ROUTES, logger: ctx.logger }),
    subscription: privacyAnswersSubscription(ctx.pool),
    start: () => job.start(),
    stop: () => job.stop(),
  };
}
