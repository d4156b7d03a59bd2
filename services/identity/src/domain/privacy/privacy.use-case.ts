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
  deleteInBatches,
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
import type pg from 'pg';
import type { AuditEvent } from './audit-log.ts';
import type { ExportSection, StudentExport } from './export-document.ts';

/** The services that hold student data and answer a privacy request (identity answers itself). */
export const PRIVACY_SERVICES = ['identity', 'class', 'assessment', 'generation', 'analytics'] as const;

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
export async function recordAudit(tx: SqlExecutor, e: AuditInput): Promise<void> {
  if (!UUID.test(e.tenantId)) return;
  // Waits for a deletion of the tenant or of one of its people in progress; the insert (a new
  // statement, so a new snapshot) then sees it.
  await lockTenantAudit(tx, e.tenantId);
  await tx.$executeRawUnsafe(
    `insert into audit_log (tenant_id, actor_id, actor_role, action, resource, target_ids, request_id, client_address, service, event, details)
     select $1::uuid, $2::uuid, $3, $4, $5,
            array(select case when exists (select 1 from privacy_requests r
                                            where r.subject_hash = encode(sha256(convert_to(t, 'UTF8')), 'hex'))
                              then 'erased:' || substr(encode(sha256(convert_to(t, 'UTF8')), 'hex'), 1, 32) else t end
                    from unnest($6::text[]) with ordinality as x(t, n) order by n),
            $7, $8, $9, $10, $11::jsonb
      where exists (select 1 from tenants where id = $1::uuid)`,
    e.tenantId,
    e.actorId && UUID.test(e.actorId) ? e.actorId : null,
    e.actorRole,
    e.action,
    e.resource.slice(0, 300),
    e.targetIds.map(auditTargetId).slice(0, AUDIT_TARGETS_MAX),
    e.requestId ? e.requestId.slice(0, 100) : null,
    e.clientAddress ? e.clientAddress.slice(0, 100) : null,
    e.service ?? 'identity',
    e.event ?? null,
    JSON.stringify(e.details ?? {}),
  );
}

/** Serialises audit inserts of a tenant with the deletions in it (held until the transaction ends). */
async function lockTenantAudit(tx: SqlExecutor, tenantId: string): Promise<void> {
  await tx.$executeRawUnsafe("select pg_advisory_xact_lock(hashtext('checkpoint.audit:' || $1::text))", tenantId);
}

/** Lets this transaction update or delete audit entries (retention, deletions). */
async function auditMaintenance(tx: SqlExecutor): Promise<void> {
  await tx.$executeRawUnsafe("select set_config('checkpoint.audit_maintenance', 'on', true)");
}

async function markErasedAfterPublish(tx: SqlExecutor, outboxId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `update outbox set headers = headers || '{"x-checkpoint-erase-after-publish":"1"}'::jsonb where id = $1::uuid`,
    outboxId,
  );
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

async function findStudent(tx: SqlExecutor, tenantId: string, studentId: string) {
  if (!UUID.test(studentId)) throw new NotFoundError('No such student in your district');
  const [user] = await tx.$queryRawUnsafe<{ id: string; role: string; email: string }[]>(
    'select id::text as id, role, email from users where id = $1::uuid and tenant_id = $2::uuid',
    studentId,
    tenantId,
  );
  if (!user || user.role !== 'student') throw new NotFoundError('No such student in your district');
  return user;
}

export function privacyUseCases(deps: PrivacyDeps) {
  // Exports and erasures scan every table for the subject's rows: not cut at the statement timeout.
  const run = <T>(fn: (tx: SqlExecutor) => Promise<T>) =>
    inTransaction(deps.pool, async (client) => {
      await client.query(LIFT_STATEMENT_TIMEOUT);
      return fn(sqlExecutor(client));
    });

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
    run(async (tx) => {
      const n = await tx.$executeRawUnsafe(
        `update tenants set ${setting.column} = $2 where id = $1::uuid`,
        actor.tenantId,
        setting.value,
      );
      if (n === 0) throw new NotFoundError('No such district');
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
    const [request] = await deps.pool
      .query<{
        id: string;
        kind: RequestStatus['kind'];
        created_at: Date;
        expected_services: string[];
      }>(
        `select id::text as id, kind, created_at, expected_services from privacy_requests
        where id = $1::uuid and ($2::uuid is null or tenant_id = $2::uuid)`,
        [requestId, tenantId],
      )
      .then((r) => r.rows);
    if (!request) throw new NotFoundError('No such request');
    const answers = (
      await deps.pool.query<{ service: string; got: number; parts: number; rows: string | null }>(
        `select service, count(*)::int as got, max(parts)::int as parts, sum(rows)::text as rows
           from privacy_request_answers where request_id = $1::uuid group by service`,
        [requestId],
      )
    ).rows;
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
    const { rows } = await deps.pool.query<{ subject_id: string | null }>(
      'select subject_id::text as subject_id from privacy_requests where id = $1::uuid',
      [requestId],
    );
    if (s.kind !== 'export' || rows[0]?.subject_id !== studentId.toLowerCase())
      throw new NotFoundError('No such export');
    return s;
  }

  return {
    status,
    exportStatus,

    /** Records an export request, stores identity's own section, asks the other services for theirs. */
    async requestExport(actor: PrivacyActor, requestedId: string): Promise<RequestStatus> {
      const requestId = randomUUID();
      await run(async (tx) => {
        // The id as stored (lower case), whatever case the call named it in.
        const { id: studentId } = await findStudent(tx, actor.tenantId, requestedId);
        await tx.$executeRawUnsafe(
          `insert into privacy_requests (id, kind, tenant_id, subject_id, requested_by, expected_services)
           values ($1::uuid, 'export', $2::uuid, $3::uuid, $4::uuid, $5::text[])`,
          requestId,
          actor.tenantId,
          studentId,
          actor.userId,
          [...PRIVACY_SERVICES],
        );
        const doc = exportDocument(await collectSubjectRows(tx, [studentId], { skip: SKIP_ON_EXPORT }));
        Object.assign(doc.tables, await mailTraces(tx, [studentId], await addressesOf(tx, [studentId])));
        // Who read or changed the student's data is part of what the district holds about them. A
        // read of a whole class names its other students too: their ids are left out of this one's.
        const audit = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
          `select id::text as id, at, actor_id, actor_role, action, resource,
                  array(select t from unnest(target_ids) as y(t)
                         where lower(t) = $1
                            or not exists (select 1 from users u where u.id::text = lower(t))) as target_ids,
                  request_id, service
             from audit_log
            where tenant_id = $2::uuid and exists (select 1 from unnest(target_ids) as x(t) where lower(t) = $1)
            order by at, id`,
          studentId,
          actor.tenantId,
        );
        if (audit.length > 0) doc.tables.audit_log = audit;
        await tx.$executeRawUnsafe(
          `insert into privacy_request_answers (request_id, service, part, parts, json) values ($1::uuid, 'identity', 0, 1, $2)`,
          requestId,
          JSON.stringify(doc),
        );
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
        await markErasedAfterPublish(tx, outboxId);
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
      const parts = (
        await deps.pool.query<{ service: string; json: string }>(
          'select service, json from privacy_request_answers where request_id = $1::uuid order by service, part',
          [requestId],
        )
      ).rows;
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
      await run(async (tx) => {
        await lockTenantAudit(tx, actor.tenantId);
        const student = await findStudent(tx, actor.tenantId, studentId);
        await auditMaintenance(tx);
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
        await pseudonymizeAudit(tx, [student.id], [student.email]);
        await endSessions(tx, [student.id]);
        await tx.$executeRawUnsafe(
          `insert into privacy_requests (id, kind, tenant_id, subject_hash, requested_by, expected_services)
           values ($1::uuid, 'delete_user', $2::uuid, $3, $4::uuid, $5::text[])`,
          requestId,
          actor.tenantId,
          subjectHash(student.id),
          actor.userId,
          [...PRIVACY_SERVICES],
        );
        const traces = await eraseMailTraces(tx, [student.id], await addressesOf(tx, [student.id]));
        const found = await collectSubjectRows(tx, [student.id], { skip: SKIP_ON_ERASE });
        const rows = traces + (await deleteFoundRows(tx, found, [student.id]));
        await tx.$executeRawUnsafe(
          `insert into privacy_request_answers (request_id, service, rows) values ($1::uuid, 'identity', $2)`,
          requestId,
          rows,
        );
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
        await markErasedAfterPublish(tx, outboxId);
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
      const tenantName = await run(async (tx) => {
        await lockTenantAudit(tx, tenantId);
        const [tenant] = await tx.$queryRawUnsafe<{ name: string }[]>(
          'select name from tenants where id = $1::uuid for update',
          tenantId,
        );
        if (!tenant) throw new NotFoundError('No such district');
        if (confirmName.trim() !== tenant.name.trim())
          throw new ValidationError('Type the district name exactly to confirm', {
            confirmName: `Type "${tenant.name}" to confirm`,
          });
        await auditMaintenance(tx);
        await tx.$executeRawUnsafe('delete from audit_log where tenant_id = $1::uuid', tenantId);
        const users = (
          await tx.$queryRawUnsafe<{ id: string }[]>(
            'select id::text as id from users where tenant_id = $1::uuid',
            tenantId,
          )
        ).map((u) => u.id);
        await pseudonymizeAudit(tx, users);
        await endSessions(tx, users);
        await tx.$executeRawUnsafe(
          `insert into privacy_requests (id, kind, tenant_id, subject_hash, requested_by, expected_services)
           values ($1::uuid, 'delete_tenant', null, $2, null, $3::text[])`,
          requestId,
          subjectHash(tenantId),
          [...PRIVACY_SERVICES],
        );
        const seeds = [tenantId, ...users];
        const traces = await eraseMailTraces(tx, users, await addressesOf(tx, users));
        const found = await collectSubjectRows(tx, seeds, { skip: SKIP_ON_ERASE });
        const rows = traces + (await deleteFoundRows(tx, found, seeds));
        await tx.$executeRawUnsafe(
          `insert into privacy_request_answers (request_id, service, rows) values ($1::uuid, 'identity', $2)`,
          requestId,
          rows,
        );
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
        await markErasedAfterPublish(tx, outboxId);
        for (const id of users) await enqueueTombstone(tx, { schema: UserDeletedSchema, key: id, tenantId });
        return tenant.name;
      });
      return { ...(await status(null, requestId)), tenantName };
    },

    async retention(tenantId: string): Promise<{ retentionDays: number | null; districtName: string }> {
      const [t] = (
        await deps.pool.query<{ retention_days: number | null; name: string }>(
          'select retention_days, name from tenants where id = $1::uuid',
          [tenantId],
        )
      ).rows;
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

    /** Whether the district keeps its students to its own classes (finding 10 of issue 26). */
    async joinPolicy(tenantId: string): Promise<{ studentsOwnClassesOnly: boolean }> {
      const [t] = (
        await deps.pool.query<{ students_own_classes_only: boolean }>(
          'select students_own_classes_only from tenants where id = $1::uuid',
          [tenantId],
        )
      ).rows;
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

/**
 * Ends the sessions of accounts about to be deleted: their rows go with the account, so their
 * family ids are kept (a day) for the gateways' revoked-session list.
 */
/**
 * The addresses the users are known by in identity: their own, and the pending address of an
 * email change (an email_tokens row of purpose 'email_change'), in lower case.
 */
async function addressesOf(tx: SqlExecutor, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<{ email: string }[]>(
    `select lower(email) as email from users where id = any($1::uuid[])
     union select lower(email) from email_tokens where user_id = any($1::uuid[])`,
    userIds,
  );
  return [...new Set(rows.map((r) => r.email).filter((e) => e.length > 0))];
}

/** What names a user in another table's key: their addresses and their id. */
const traceWords = (userIds: string[], addresses: string[]) => [...addresses, ...userIds.map((id) => id.toLowerCase())];

/**
 * The rate-limit counters whose key names one of `$1` (a word: an address or an id): in plain, or
 * hashed when the key would be too long (a key that is exactly the address is found by its hash).
 */
const RATE_LIMIT_KEY_NAMES = `where exists (select 1 from unnest($1::text[]) as w(x)
                      where strpos(lower(r.key), w.x) > 0
                         or r.key like '%sha256:' || encode(sha256(convert_to(w.x, 'UTF8')), 'hex'))`;

/**
 * The mail and links identity holds about the users, for their export: the mails to their
 * addresses (links replaced: a link is a secret while it is valid) and the one-time links issued
 * for them (what, for which address, when; never the token's hash or the payload's password hash).
 */
async function mailTraces(
  tx: SqlExecutor,
  userIds: string[],
  addresses: string[],
): Promise<Record<string, Record<string, unknown>[]>> {
  const mails = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
    `select id::text as id, "to", subject,
            regexp_replace(text, 'https?://[^[:space:]<>"]+', '[link removed]', 'g') as text,
            created_at, sent_at
       from outgoing_mail where lower("to") = any($1::text[]) order by created_at, id`,
    addresses,
  );
  const links = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
    `select purpose, email, created_at, expires_at, used_at,
            nullif(jsonb_strip_nulls(jsonb_build_object('first_name', payload->>'firstName',
                   'last_name', payload->>'lastName', 'role', payload->>'role')), '{}'::jsonb) as details
       from email_tokens where user_id = any($1::uuid[]) or lower(email) = any($2::text[])
      order by created_at`,
    userIds,
    addresses,
  );
  const counters = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
    `select key, points, to_timestamp(expire / 1000.0) as expires_at from rate_limits r ${RATE_LIMIT_KEY_NAMES}
      order by key`,
    traceWords(userIds, addresses),
  );
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
async function eraseMailTraces(tx: SqlExecutor, userIds: string[], addresses: string[]): Promise<number> {
  const words = traceWords(userIds, addresses);
  if (words.length === 0) return 0;
  let rows = await tx.$executeRawUnsafe('delete from outgoing_mail where lower("to") = any($1::text[])', addresses);
  rows += await tx.$executeRawUnsafe(
    'delete from email_tokens where user_id = any($1::uuid[]) or lower(email) = any($2::text[])',
    userIds,
    addresses,
  );
  rows += await tx.$executeRawUnsafe(`delete from rate_limits r ${RATE_LIMIT_KEY_NAMES}`, words);
  return rows;
}

async function endSessions(tx: SqlExecutor, userIds: string[]): Promise<void> {
  await tx.$executeRawUnsafe("delete from erased_sessions where revoked_at < now() - interval '1 day'");
  await tx.$executeRawUnsafe(
    `insert into erased_sessions (family_id, revoked_at)
     select distinct family_id, clock_timestamp() from sessions
      where user_id = any($1::uuid[]) and revoked_at is null and expires_at > now()
     on conflict (family_id) do nothing`,
    userIds,
  );
}

/**
 * Replaces the ids in every audit entry by their pseudonyms (the transaction set maintenance), in
 * whatever case an entry names them: the pseudonym is that of the id in lower case, as recordAudit
 * writes it for an entry arriving later. Every entry is read (no index finds an id in any mixed
 * case, which a service from before the lower-casing may still write during a rolling upgrade): a
 * deletion is rare, and its promise is that the id is found nowhere.
 */
async function pseudonymizeAudit(tx: SqlExecutor, ids: string[], emails: string[] = []): Promise<void> {
  if (ids.length === 0) return;
  // An invitation's entries name the address, not the account: it goes too (the entry stays).
  if (emails.length > 0)
    await tx.$executeRawUnsafe(
      `update audit_log set details = details - 'email' || '{"emailErased": true}'::jsonb
        where details ? 'email' and lower(details->>'email') = any($1::text[])`,
      emails.map((e) => e.toLowerCase()),
    );
  const lower = [...new Set(ids.map((id) => id.toLowerCase()))];
  await tx.$executeRawUnsafe(
    `update audit_log a set
        target_ids = array(select case when lower(t) = any($1::text[])
                                       then 'erased:' || substr(encode(sha256(convert_to(lower(t), 'UTF8')), 'hex'), 1, 32)
                                       else t end
                             from unnest(a.target_ids) with ordinality as x(t, n) order by n),
        actor_id = case when a.actor_id::text = any($1::text[]) then null else a.actor_id end
      where a.actor_id = any($1::uuid[]) or exists (select 1 from unnest(a.target_ids) as x(t) where lower(t) = any($1::text[]))`,
    lower,
  );
}

/** Deletes the sections of exports past EXPORT_TTL_DAYS (the request stays, without data). */
export async function deleteExpiredExports(pool: pg.Pool, options: { running?: () => boolean } = {}): Promise<number> {
  return deleteInBatches(
    sqlExecutor(pool),
    'privacy_request_answers',
    `request_id in (select id from privacy_requests where kind = 'export' and created_at < now() - $1 * interval '1 day')`,
    [EXPORT_TTL_DAYS],
    options,
  );
}

/** The identity service's retention: the tenant's audit entries and privacy requests past the period. */
export async function identityRetention(tx: SqlExecutor, tenantId: string, cutoff: Date): Promise<number> {
  await auditMaintenance(tx);
  const audit = await tx.$executeRawUnsafe(
    'delete from audit_log where tenant_id = $1::uuid and at < $2::timestamptz',
    tenantId,
    cutoff,
  );
  const requests = await tx.$executeRawUnsafe(
    'delete from privacy_requests where tenant_id = $1::uuid and created_at < $2::timestamptz',
    tenantId,
    cutoff,
  );
  return audit + requests;
}
