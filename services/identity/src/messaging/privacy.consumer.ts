// The identity service's subscription to checkpoint.privacy.v1: the other services' export
// sections and deletion confirmations (stored with their request), and their audit entries
// (appended to the audit log). docs/adr/009-privacy-operations.md.
import { inboxConsumer, type SubscribeOptions } from '@checkpoint/events';
import { LIFT_STATEMENT_TIMEOUT, poolTransactions } from '@checkpoint/service-kit';
import type pg from 'pg';
import { recordAudit, type AuditAction } from '../domain/privacy/privacy.use-case.ts';

export const PRIVACY_TOPIC = 'checkpoint.privacy.v1';
export const IDENTITY_PRIVACY_GROUP = 'identity-privacy';
const ACTIONS = new Set(['read', 'change', 'export', 'delete']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function privacyAnswersSubscription(pool: pg.Pool): SubscribeOptions {
  return {
    groupId: IDENTITY_PRIVACY_GROUP,
    topics: [PRIVACY_TOPIC],
    ...inboxConsumer(poolTransactions(pool), IDENTITY_PRIVACY_GROUP, {
      'checkpoint.privacy.v1.StudentDataExported': async (tx, m) => {
        if (!UUID.test(m.requestId) || !m.service) return;
        // A request deleted meanwhile (the student was deleted) takes no answers.
        await tx.$executeRawUnsafe(
          `insert into privacy_request_answers (request_id, service, part, parts, json)
           select $1::uuid, $2, $3, $4, $5 where exists (select 1 from privacy_requests where id = $1::uuid)
           on conflict do nothing`,
          m.requestId,
          m.service,
          m.part,
          Math.max(1, m.parts),
          m.json,
        );
      },
      'checkpoint.privacy.v1.SubjectDataErased': async (tx, m) => {
        if (!UUID.test(m.requestId) || !m.service) return;
        await tx.$executeRawUnsafe(
          `insert into privacy_request_answers (request_id, service, rows)
           select $1::uuid, $2, $3 where exists (select 1 from privacy_requests where id = $1::uuid)
           on conflict do nothing`,
          m.requestId,
          m.service,
          m.rows,
        );
      },
      'checkpoint.privacy.v1.AuditEntryRecorded': async (tx, m) => {
        if (!UUID.test(m.tenantId) || !ACTIONS.has(m.action)) return;
        // The entry waits for an erasure of its district in progress, however long that takes:
        // cut at the statement timeout, it would be retried into the dead letters and lost.
        await tx.$executeRawUnsafe(LIFT_STATEMENT_TIMEOUT);
        await recordAudit(tx, {
          tenantId: m.tenantId,
          actorId: m.actorId,
          actorRole: m.actorRole,
          action: m.action as AuditAction,
          resource: m.resource,
          targetIds: m.targetIds,
          requestId: m.requestId,
          clientAddress: m.clientAddress,
          service: m.service || 'unknown',
        });
      },
    }),
  };
}
