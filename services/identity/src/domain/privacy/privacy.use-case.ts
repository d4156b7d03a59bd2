// Privacy operations of a district's admin (docs/adr/009-privacy-operations.md): a student's
// export and deletion, the district's deletion, the retention period, and the audit log. The
// identity service answers for its own rows at once; the other services answer by event
// (checkpoint.privacy.v1), stored by messaging/privacy.consumer.ts.
import { randomUUID } from 'node:crypto';
import { create, type DescMessage } from '@bufbuild/protobuf';
import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  collectSubjectRows,
  deleteFoundRows,
  enqueueEvent,
  enqueueTombstone,
  exportDocument,
  sqlExecutor,
  StudentExportRequestedSchema,
  subjectHash,
  TenantDeletedSchema,
  TenantJoinPolicyChangedSchema,
  TenantRetentionChangedSchema,
  UserDeletedSchema,
  type EnqueueEventInput,
  type SqlExecutor,
} from '@checkpoint/events';
import {
  AUDIT_TARGETS_MAX,
  auditTargetId,
  ConflictError,
  inTransaction,
  LIFT_STATEMENT_TIMEOUT,
  NotFoundError,
  ValidationError,
} from '@checkpoint/service-kit';
import { privacyServices, services } from '@checkpoint/service-registry';
import type pg from 'pg';
import { privacyRepository, type PrivacyRepository } from '../../data-access/privacy.repository.ts';
import type { AuditEvent } from './audit-log.ts';
import type { ExportSection, StudentExport } from './export-document.ts';

/**
 * The services that hold student data and answer a privacy request (identity answers itself):
 * those marked `privacy` in packages/service-registry/services.js.
 */
export const PRIVACY_SERVICES = privacyServices(services);

/** Identity's tables that the generic export/erasure leaves out: handled on their own, or no one's data. */
const SKIP_ON_ERASE = ['audit_log', 'privacy_jobs', 'signing_keys'];
const SKIP_ON_EXPORT = [
  ...SKIP_ON_ERASE,
  'privacy_requests',
  'privacy_request_answers',
  // Described by mailTraces (their links, token hashes and password hashes are secrets; only the
  // rate-limit counters that name the student).
  'rate_limits',
  'outgoing_mail',
  'email_tokens',
];

/** A student's export is kept this long for its download, then its sections are deleted. */
export const EXPORT_TTL_DAYS = 7;

/** Ids of a deleted district's accounts sent with TenantDeleted (≈ 38 bytes each: below 1 MB). */
const TENANT_USER_IDS_MAX = 20_000;

export type AuditAction = 'read' | 'change' | 'export' | 'delete';

export interface AuditInput {
  tenantId: string;
  actorId: string | null;
  actorRole: string;
  action: AuditAction;
  resource: string;
  targetIds: string[];
  requestId?: string | null;
  clientAddress?: string | null;
  service?: string;
  /** What the district's administration did (audit-log.ts AUDIT_EVENTS); absent for a route's entry. */
  event?: AuditEvent;
  /** The event's facts, machine-readable (an address, a role, an import's counts); no names. */
  details?: Record<string, unknown>;
}

/** Who asks, for the audit entry of the request. */
export interface PrivacyActor {
  userId: string;
  role: string;
  tenantId: string;
  requestId?: string | undefined;
  clientAddress?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Appends one audit entry (the only way rows get into audit_log). An entry arriving after its
 * district was deleted is dropped, and an id of a deleted person (a request kept its hash) is
 * written as its pseudonym: entries travel by event and may arrive after the deletion.
 */
/**
 * Takes the tenant's audit lock before a transaction writes rows that hang on the tenant (the
 * order a district's deletion takes them: its audit lock, then its row), and says whether the
 * tenant is still there once any deletion in progress has ended.
 */
export async function holdTenantForChange(tx: SqlExecutor, tenantId: string): Promise<boolean> {
  await privacyRepository(tx).lockTenantAudit(tenantId);
  const rows = await tx.$queryRawUnsafe<unknown[]>('select 1 from tenants where id = $1::uuid', tenantId);
  return rows.length > 0;
}

export async function recordAudit(tx: SqlExecutor, e: AuditInput): Promise<void> {
  if (!UUID.test(e.tenantId)) return;
  // Waits for a deletion of the tenant or of one of its people in progress; the insert (a new
  // statement, so a new snapshot) then sees it.
  const rows = privacyRepository(tx);
  await rows.lockTenantAudit(e.tenantId);
  await rows.insertAuditEntry({
    tenantId: e.tenantId,
    actorId: e.actorId && UUID.test(e.actorId) ? e.actorId : null,
    actorRole: e.actorRole,
    action: e.action,
    resource: e.resource.slice(0, 300),
    targetIds: e.targetIds.map(auditTargetId).slice(0, AUDIT_TARGETS_MAX),
    requestId: e.requestId ? e.requestId.slice(0, 100) : null,
    clientAddress: e.clientAddress ? e.clientAddress.slice(0, 100) : null,
    service: e.service ?? 'identity',
    event: e.event ?? null,
    details: e.details ?? {},
  });
}

export interface PrivacyDeps {
  pool: pg.Pool;
  source: string;
}

export interface RequestStatus {
  requestId: string;
  kind: 'export' | 'delete_user' | 'delete_tenant';
  createdAt: string;
  expected: number;
  answered: number;
  complete: boolean;
  services: { service: string; answered: boolean; rows: number | null }[];
}

async function findStudent(rows: PrivacyRepository, tenantId: string, studentId: string) {
  if (!UUID.test(studentId)) throw new NotFoundError('No such student in your district');
  const user = await rows.findUserInTenant(tenantId, studentId);
  if (!user || user.role !== 'student') throw new NotFoundError('No such student in your district');
  return user;
}

export function privacyUseCases(deps: PrivacyDeps) {
  // Exports and erasures scan every table for the subject's rows: not cut at the statement timeout.
  const run = <T>(fn: (tx: SqlExecutor, rows: PrivacyRepository) => Promise<T>) =>
    inTransaction(deps.pool, async (client) => {
      await client.query(LIFT_STATEMENT_TIMEOUT);
      const tx = sqlExecutor(client);
      return fn(tx, privacyRepository(tx));
    });
  /** The reads outside a transaction, on the pool. */
  const pooled = privacyRepository(sqlExecutor(deps.pool));

  /**
   * One district setting changed by its admin: the tenant's column updated, the change audited and
   * its event (the setting's full state, key tenant_id) queued, in one transaction.
   */
  const changeTenantSetting = (
    actor: PrivacyActor,
    setting: {
      column: 'retention_days' | 'students_own_classes_only';
      value: number | boolean | null;
      resource: string;
      details: Record<string, unknown>;
      event: (tenantId: string, occurredAt: Timestamp) => Pick<EnqueueEventInput<DescMessage>, 'schema' | 'message'>;
    },
  ) =>
    run(async (tx, rows) => {
      // The tenant's audit lock before its row, in the order a district's deletion takes them:
      // the other order deadlocks with a deletion asked for at the same moment.
      await rows.lockTenantAudit(actor.tenantId);
      if (!(await rows.updateTenantSetting(actor.tenantId, setting.column, setting.value)))
        throw new NotFoundError('No such district');
      await recordAudit(tx, {
        tenantId: actor.tenantId,
        actorId: actor.userId,
        actorRole: actor.role,
        action: 'change',
        resource: setting.resource,
        targetIds: [actor.tenantId],
        details: setting.details,
        requestId: actor.requestId ?? null,
        clientAddress: actor.clientAddress ?? null,
      });
      await enqueueEvent(tx, {
        source: deps.source,
        ...setting.event(actor.tenantId, timestampFromDate(new Date())),
        key: actor.tenantId,
        tenantId: actor.tenantId,
      });
    });

  async function status(tenantId: string | null, requestId: string): Promise<RequestStatus> {
    if (!UUID.test(requestId)) throw new NotFoundError('No such request');
    const request = await pooled.findRequest(tenantId, requestId);
    if (!request) throw new NotFoundError('No such request');
    const answers = await pooled.answerCounts(requestId);
    const services = request.expected_services.map((service) => {
      const a = answers.find((x) => x.service === service);
      return { service, answered: !!a && a.got >= a.parts, rows: a?.rows != null ? Number(a.rows) : null };
    });
    const answered = services.filter((s) => s.answered).length;
    return {
      requestId: request.id,
      kind: request.kind,
      createdAt: request.created_at.toISOString(),
      expected: services.length,
      answered,
      complete: answered === services.length,
      services,
    };
  }

  /** The status of an export of that student (another student's or district's request: 404). */
  async function exportStatus(tenantId: string, studentId: string, requestId: string): Promise<RequestStatus> {
    const s = await status(tenantId, requestId);
    if (s.kind !== 'export' || (await pooled.requestSubject(requestId)) !== studentId.toLowerCase())
      throw new NotFoundError('No such export');
    return s;
  }

  return {
    status,
    exportStatus,

    /** Records an export request, stores identity's own section, asks the other services for theirs. */
    async requestExport(actor: PrivacyActor, requestedId: string): Promise<RequestStatus> {
      const requestId = randomUUID();
      await run(async (tx, rows) => {
        // The id as stored (lower case), whatever case the call named it in.
        const { id: studentId } = await findStudent(rows, actor.tenantId, requestedId);
        await rows.insertRequest({
          id: requestId,
          kind: 'export',
          tenantId: actor.tenantId,
          subjectId: studentId,
          requestedBy: actor.userId,
          expectedServices: [...PRIVACY_SERVICES],
        });
        const doc = exportDocument(await collectSubjectRows(tx, [studentId], { skip: SKIP_ON_EXPORT }));
        Object.assign(doc.tables, await mailTraces(rows, [studentId], await rows.addressesOf([studentId])));
        // Who read or changed the student's data is part of what the district holds about them. A
        // read of a whole class names its other students too: their ids are left out of this one's.
        const audit = await rows.auditEntriesAbout(actor.tenantId, studentId);
        if (audit.length > 0) doc.tables.audit_log = audit;
        await rows.insertExportAnswer(requestId, 'identity', JSON.stringify(doc));
        await recordAudit(tx, {
          tenantId: actor.tenantId,
          actorId: actor.userId,
          actorRole: actor.role,
          action: 'export',
          resource: 'POST /api/district/students/{id}/exports',
          targetIds: [studentId],
          requestId: actor.requestId ?? null,
          clientAddress: actor.clientAddress ?? null,
        });
        const outboxId = await enqueueEvent(tx, {
          source: deps.source,
          schema: StudentExportRequestedSchema,
          message: create(StudentExportRequestedSchema, {
            requestId,
            tenantId: actor.tenantId,
            userId: studentId,
            occurredAt: timestampFromDate(new Date()),
          }),
          key: studentId,
          tenantId: actor.tenantId,
        });
        await rows.markErasedAfterPublish(outboxId);
      });
      return status(actor.tenantId, requestId);
    },

    /** Records that an admin downloaded a student's export: filed under the student and the request. */
    async recordExportDownload(actor: PrivacyActor, studentId: string, requestId: string): Promise<void> {
      await run(async (tx) => {
        await recordAudit(tx, {
          tenantId: actor.tenantId,
          actorId: actor.userId,
          actorRole: actor.role,
          action: 'export',
          resource: 'GET /api/district/students/{id}/exports/{requestId}/download',
          targetIds: [studentId, requestId],
          requestId: actor.requestId ?? null,
          clientAddress: actor.clientAddress ?? null,
        });
      });
    },

    /** The export's document once every service answered: per service, per table, the rows. */
    async exportDocument(tenantId: string, studentId: string, requestId: string): Promise<StudentExport> {
      const s = await exportStatus(tenantId, studentId, requestId);
      if (Date.parse(s.createdAt) < Date.now() - EXPORT_TTL_DAYS * 86_400_000)
        throw new NotFoundError(`Exports are kept ${EXPORT_TTL_DAYS} days; this one has expired, request a new one`);
      if (!s.complete)
        throw new ConflictError(
          `The export is not complete yet: ${s.answered} of ${s.expected} services answered`,
          'export_incomplete',
        );
      const parts = await pooled.answerParts(requestId);
      const services: Record<string, ExportSection> = {};
      const text = new Map<string, string>();
      for (const p of parts) text.set(p.service, (text.get(p.service) ?? '') + p.json);
      for (const service of PRIVACY_SERVICES) {
        const json = text.get(service);
        services[service] = json ? (JSON.parse(json) as ExportSection) : { tables: {} };
      }
      return { requestId, studentId: studentId.toLowerCase(), exportedAt: s.createdAt, services };
    },

    /** Deletes the student everywhere: identity's rows now, the other services' on UserDeleted. */
    async deleteStudent(actor: PrivacyActor, studentId: string): Promise<RequestStatus> {
      const requestId = randomUUID();
      await run(async (tx, rows) => {
        await rows.lockTenantAudit(actor.tenantId);
        const student = await findStudent(rows, actor.tenantId, studentId);
        await rows.allowAuditMaintenance();
        await recordAudit(tx, {
          tenantId: actor.tenantId,
          actorId: actor.userId,
          actorRole: actor.role,
          action: 'delete',
          resource: 'DELETE /api/district/students/{id}',
          targetIds: [student.id],
          requestId: actor.requestId ?? null,
          clientAddress: actor.clientAddress ?? null,
        });
        await pseudonymizeAudit(rows, [student.id], student.email ? [student.email] : []);
        await rows.keepErasedSessions([student.id]);
        await rows.insertRequest({
          id: requestId,
          kind: 'delete_user',
          tenantId: actor.tenantId,
          subjectHash: subjectHash(student.id),
          requestedBy: actor.userId,
          expectedServices: [...PRIVACY_SERVICES],
        });
        const traces = await eraseMailTraces(rows, [student.id], await rows.addressesOf([student.id]));
        const found = await collectSubjectRows(tx, [student.id], { skip: SKIP_ON_ERASE });
        const deleted = traces + (await deleteFoundRows(tx, found, [student.id]));
        await rows.insertDeletionAnswer(requestId, 'identity', deleted);
        const outboxId = await enqueueEvent(tx, {
          source: deps.source,
          schema: UserDeletedSchema,
          message: create(UserDeletedSchema, {
            userId: student.id,
            tenantId: actor.tenantId,
            requestId,
            occurredAt: timestampFromDate(new Date()),
          }),
          key: student.id,
          tenantId: actor.tenantId,
        });
        await rows.markErasedAfterPublish(outboxId);
        await enqueueTombstone(tx, { schema: UserDeletedSchema, key: student.id, tenantId: actor.tenantId });
      });
      return status(actor.tenantId, requestId);
    },

    /**
     * Deletes a whole district: its accounts, sessions, settings, requests and audit entries; the
     * other services delete theirs on TenantDeleted. Returns the request (kept without a tenant).
     */
    async deleteTenant(tenantId: string, confirmName: string): Promise<RequestStatus & { tenantName: string }> {
      const requestId = randomUUID();
      const tenantName = await run(async (tx, rows) => {
        await rows.lockTenantAudit(tenantId);
        const tenant = await rows.lockTenant(tenantId);
        if (!tenant) throw new NotFoundError('No such district');
        if (confirmName.trim() !== tenant.name.trim())
          throw new ValidationError('Type the district name exactly to confirm', {
            confirmName: `Type "${tenant.name}" to confirm`,
          });
        await rows.allowAuditMaintenance();
        await rows.deleteTenantAudit(tenantId);
        const users = await rows.userIdsOfTenant(tenantId);
        await pseudonymizeAudit(rows, users);
        await rows.keepErasedSessions(users);
        await rows.insertRequest({
          id: requestId,
          kind: 'delete_tenant',
          tenantId: null,
          subjectHash: subjectHash(tenantId),
          requestedBy: null,
          expectedServices: [...PRIVACY_SERVICES],
        });
        const seeds = [tenantId, ...users];
        const traces = await eraseMailTraces(rows, users, await rows.addressesOf(users));
        const found = await collectSubjectRows(tx, seeds, { skip: SKIP_ON_ERASE });
        const deleted = traces + (await deleteFoundRows(tx, found, seeds));
        await rows.insertDeletionAnswer(requestId, 'identity', deleted);
        const outboxId = await enqueueEvent(tx, {
          source: deps.source,
          schema: TenantDeletedSchema,
          message: create(TenantDeletedSchema, {
            tenantId,
            requestId,
            occurredAt: timestampFromDate(new Date()),
            userIds: users.length <= TENANT_USER_IDS_MAX ? users : [],
          }),
          key: tenantId,
          tenantId,
        });
        await rows.markErasedAfterPublish(outboxId);
        for (const id of users) await enqueueTombstone(tx, { schema: UserDeletedSchema, key: id, tenantId });
        return tenant.name;
      });
      return { ...(await status(null, requestId)), tenantName };
    },

    async retention(tenantId: string): Promise<{ retentionDays: number | null; districtName: string }> {
      const t = await pooled.tenantSettings(tenantId);
      if (!t) throw new NotFoundError('No such district');
      return { retentionDays: t.retention_days, districtName: t.name };
    },

    async setRetention(actor: PrivacyActor, retentionDays: number | null) {
      await changeTenantSetting(actor, {
        column: 'retention_days',
        value: retentionDays,
        resource: 'PUT /api/district/privacy',
        details: { retentionDays },
        event: (tenantId, occurredAt) => ({
          schema: TenantRetentionChangedSchema,
          message: create(TenantRetentionChangedSchema, { tenantId, retentionDays: retentionDays ?? 0, occurredAt }),
        }),
      });
      return this.retention(actor.tenantId);
    },

    /** Whether the district keeps its students to its own classes (docs/security.md, "A district decides whether its students join other districts' classes"). */
    async joinPolicy(tenantId: string): Promise<{ studentsOwnClassesOnly: boolean }> {
      const t = await pooled.tenantSettings(tenantId);
      if (!t) throw new NotFoundError('No such district');
      return { studentsOwnClassesOnly: t.students_own_classes_only };
    },

    /** Sets it, audited, and tells the class service (TenantJoinPolicyChanged, the full state). */
    async setJoinPolicy(actor: PrivacyActor, studentsOwnClassesOnly: boolean) {
      await changeTenantSetting(actor, {
        column: 'students_own_classes_only',
        value: studentsOwnClassesOnly,
        resource: 'PUT /api/district/class-joins',
        details: { studentsOwnClassesOnly },
        event: (tenantId, occurredAt) => ({
          schema: TenantJoinPolicyChangedSchema,
          message: create(TenantJoinPolicyChangedSchema, {
            tenantId,
            ownClassesOnly: studentsOwnClassesOnly,
            occurredAt,
          }),
        }),
      });
      return this.joinPolicy(actor.tenantId);
    },
  };
}

/** What names a user in another table's key: their addresses and their id. */
const traceWords = (userIds: string[], addresses: string[]) => [...addresses, ...userIds.map((id) => id.toLowerCase())];

/**
 * The mail and links identity holds about the users, for their export: the mails to their
 * addresses (links replaced: a link is a secret while it is valid), the one-time links issued for
 * them (what, for which address, when; never the token's hash or the payload's password hash) and
 * the rate-limit counters whose key names an address or an id.
 */
async function mailTraces(
  rows: PrivacyRepository,
  userIds: string[],
  addresses: string[],
): Promise<Record<string, Record<string, unknown>[]>> {
  const mails = await rows.mailsTo(addresses);
  const links = await rows.emailLinksOf(userIds, addresses);
  const counters = await rows.rateLimitsNaming(traceWords(userIds, addresses));
  return {
    ...(mails.length > 0 ? { outgoing_mail: mails } : {}),
    ...(links.length > 0 ? { email_links: links } : {}),
    ...(counters.length > 0 ? { rate_limits: counters } : {}),
  };
}

/**
 * Deletes at once what identity holds about the users outside their own rows: the mail to their
 * addresses, the one-time links for them or their addresses (a used sign-up link keeps their name
 * and password hash), and the rate-limit counters whose key names an address or an id (hashed
 * when long: a key that is exactly the address is found by its hash). Returns the rows deleted.
 */
async function eraseMailTraces(rows: PrivacyRepository, userIds: string[], addresses: string[]): Promise<number> {
  const words = traceWords(userIds, addresses);
  if (words.length === 0) return 0;
  return (
    (await rows.deleteMailsTo(addresses)) +
    (await rows.deleteEmailLinksOf(userIds, addresses)) +
    (await rows.deleteRateLimitsNaming(words))
  );
}

/**
 * Replaces the ids in every audit entry by their pseudonyms (the transaction set maintenance), in
 * whatever case an entry names them: the pseudonym is that of the id in lower case, as recordAudit
 * writes it for an entry arriving later. Every entry is read (no index finds an id in any mixed
 * case, which a service from before the lower-casing may still write during a rolling upgrade): a
 * deletion is rare, and its promise is that the id is found nowhere.
 */
async function pseudonymizeAudit(rows: PrivacyRepository, ids: string[], emails: string[] = []): Promise<void> {
  if (ids.length === 0) return;
  // An invitation's entries name the address, not the account: it goes too (the entry stays).
  if (emails.length > 0) await rows.eraseAuditEmails(emails.map((e) => e.toLowerCase()));
  await rows.pseudonymizeAuditIds([...new Set(ids.map((id) => id.toLowerCase()))]);
}

/** Deletes the sections of exports past EXPORT_TTL_DAYS (the request stays, without data). */
export async function deleteExpiredExports(pool: pg.Pool, options: { running?: () => boolean } = {}): Promise<number> {
  return privacyRepository(sqlExecutor(pool)).deleteExportSectionsOlderThan(EXPORT_TTL_DAYS, options);
}

/** The identity service's retention: the tenant's audit entries and privacy requests past the period. */
export async function identityRetention(tx: SqlExecutor, tenantId: string, cutoff: Date): Promise<number> {
  const rows = privacyRepository(tx);
  await rows.allowAuditMaintenance();
  return rows.deleteTenantAuditAndRequestsBefore(tenantId, cutoff);
}
