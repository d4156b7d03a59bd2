// The SQL of the privacy operations (domain/privacy/privacy.use-case.ts decides what is exported,
// erased and kept, in which order and transaction): the audit log, the privacy requests and their
// answers, the district's settings, and identity's traces of a person outside their own rows. On
// an executor: a transaction's (the use case opens it) or the pool's, for the reads outside one.
import { deleteInBatches, type SqlExecutor } from '@checkpoint/events';
import type { AuditEntry } from '../domain/privacy/audit-log.ts';

/** An audit entry as written (values already cut to the columns' limits). */
export type AuditRow = Omit<AuditEntry, 'id' | 'at' | 'actorName' | 'summary'> & { tenantId: string };

export type PrivacyRequestKind = 'export' | 'delete_user' | 'delete_tenant';

export interface NewPrivacyRequest {
  id: string;
  kind: PrivacyRequestKind;
  /** Null for a district's deletion (the request outlives its tenant). */
  tenantId: string | null;
  /** An export names its subject; a deletion keeps only the subject's hash. */
  subjectId?: string;
  subjectHash?: string;
  requestedBy: string | null;
  expectedServices: string[];
}

export interface PrivacyRequestRow {
  id: string;
  kind: PrivacyRequestKind;
  created_at: Date;
  expected_services: string[];
}

export interface AnswerCountRow {
  service: string;
  got: number;
  parts: number;
  rows: string | null;
}

export type TenantSetting = 'retention_days' | 'students_own_classes_only';

/**
 * The rate-limit counters whose key names one of `$1` (a word: an address or an id): in plain, or
 * hashed when the key would be too long (a key that is exactly the address is found by its hash).
 */
const RATE_LIMIT_KEY_NAMES = `where exists (select 1 from unnest($1::text[]) as w(x)
                      where strpos(lower(r.key), w.x) > 0
                         or r.key like '%sha256:' || encode(sha256(convert_to(w.x, 'UTF8')), 'hex'))`;

export function privacyRepository(db: SqlExecutor) {
  return {
    /**
     * Appends an entry unless its tenant is gone; a target id of a deleted person (a request kept
     * its hash) is written as its pseudonym.
     */
    async insertAuditEntry(e: AuditRow): Promise<void> {
      await db.$executeRawUnsafe(
        `insert into audit_log (tenant_id, actor_id, actor_role, action, resource, target_ids, request_id, client_address, service, event, details)
         select $1::uuid, $2::uuid, $3, $4, $5,
                array(select case when exists (select 1 from privacy_requests r
                                                where r.subject_hash = encode(sha256(convert_to(t, 'UTF8')), 'hex'))
                                  then 'erased:' || substr(encode(sha256(convert_to(t, 'UTF8')), 'hex'), 1, 32) else t end
                        from unnest($6::text[]) with ordinality as x(t, n) order by n),
                $7, $8, $9, $10, $11::jsonb
          where exists (select 1 from tenants where id = $1::uuid)`,
        e.tenantId,
        e.actorId,
        e.actorRole,
        e.action,
        e.resource,
        e.targetIds,
        e.requestId,
        e.clientAddress,
        e.service,
        e.event,
        JSON.stringify(e.details),
      );
    },

    /** Serialises audit inserts of a tenant with the deletions in it (held until the transaction ends). */
    async lockTenantAudit(tenantId: string): Promise<void> {
      await db.$executeRawUnsafe("select pg_advisory_xact_lock(hashtext('checkpoint.audit:' || $1::text))", tenantId);
    },

    /** Lets this transaction update or delete audit entries (retention, deletions). */
    async allowAuditMaintenance(): Promise<void> {
      await db.$executeRawUnsafe("select set_config('checkpoint.audit_maintenance', 'on', true)");
    },

    /** Marks a queued event for the relay to erase once published (it names a person). */
    async markErasedAfterPublish(outboxId: string): Promise<void> {
      await db.$executeRawUnsafe(
        `update outbox set headers = headers || '{"x-checkpoint-erase-after-publish":"1"}'::jsonb where id = $1::uuid`,
        outboxId,
      );
    },

    async findUserInTenant(tenantId: string, userId: string) {
      // email: null for a student account without email (ADR 015).
      const [user] = await db.$queryRawUnsafe<{ id: string; role: string; email: string | null }[]>(
        'select id::text as id, role, email from users where id = $1::uuid and tenant_id = $2::uuid',
        userId,
        tenantId,
      );
      return user;
    },

    /** The ids of a tenant's accounts. */
    async userIdsOfTenant(tenantId: string): Promise<string[]> {
      const rows = await db.$queryRawUnsafe<{ id: string }[]>(
        'select id::text as id from users where tenant_id = $1::uuid',
        tenantId,
      );
      return rows.map((u) => u.id);
    },

    /** The tenant's name, its row locked until the transaction ends. */
    async lockTenant(tenantId: string): Promise<{ name: string } | undefined> {
      const [tenant] = await db.$queryRawUnsafe<{ name: string }[]>(
        'select name from tenants where id = $1::uuid for update',
        tenantId,
      );
      return tenant;
    },

    /** Sets one of the tenant's settings; false when there is no such tenant. */
    async updateTenantSetting(tenantId: string, column: TenantSetting, value: number | boolean | null) {
      return (await db.$executeRawUnsafe(`update tenants set ${column} = $2 where id = $1::uuid`, tenantId, value)) > 0;
    },

    async tenantSettings(tenantId: string) {
      const [t] = await db.$queryRawUnsafe<
        { name: string; retention_days: number | null; students_own_classes_only: boolean }[]
      >('select name, retention_days, students_own_classes_only from tenants where id = $1::uuid', tenantId);
      return t;
    },

    async insertRequest(r: NewPrivacyRequest): Promise<void> {
      await db.$executeRawUnsafe(
        `insert into privacy_requests (id, kind, tenant_id, subject_id, subject_hash, requested_by, expected_services)
         values ($1::uuid, $2, $3::uuid, $4::uuid, $5, $6::uuid, $7::text[])`,
        r.id,
        r.kind,
        r.tenantId,
        r.subjectId ?? null,
        r.subjectHash ?? null,
        r.requestedBy,
        r.expectedServices,
      );
    },

    /** The request, when it is the tenant's (any tenant's for null). */
    async findRequest(tenantId: string | null, requestId: string): Promise<PrivacyRequestRow | undefined> {
      const [request] = await db.$queryRawUnsafe<PrivacyRequestRow[]>(
        `select id::text as id, kind, created_at, expected_services from privacy_requests
        where id = $1::uuid and ($2::uuid is null or tenant_id = $2::uuid)`,
        requestId,
        tenantId,
      );
      return request;
    },

    async requestSubject(requestId: string): Promise<string | null | undefined> {
      const rows = await db.$queryRawUnsafe<{ subject_id: string | null }[]>(
        'select subject_id::text as subject_id from privacy_requests where id = $1::uuid',
        requestId,
      );
      return rows[0]?.subject_id;
    },

    /** Per service, the parts of its answer received, of how many, and the rows it counted. */
    async answerCounts(requestId: string): Promise<AnswerCountRow[]> {
      return db.$queryRawUnsafe<AnswerCountRow[]>(
        `select service, count(*)::int as got, max(parts)::int as parts, sum(rows)::text as rows
           from privacy_request_answers where request_id = $1::uuid group by service`,
        requestId,
      );
    },

    /** The export's sections, in order: per service its parts' JSON text. */
    async answerParts(requestId: string): Promise<{ service: string; json: string }[]> {
      return db.$queryRawUnsafe<{ service: string; json: string }[]>(
        'select service, json from privacy_request_answers where request_id = $1::uuid order by service, part',
        requestId,
      );
    },

    /** Identity's export section, in one part. */
    async insertExportAnswer(requestId: string, service: string, json: string): Promise<void> {
      await db.$executeRawUnsafe(
        `insert into privacy_request_answers (request_id, service, part, parts, json) values ($1::uuid, $2, 0, 1, $3)`,
        requestId,
        service,
        json,
      );
    },

    /** Identity's answer to a deletion: the rows it deleted. */
    async insertDeletionAnswer(requestId: string, service: string, rows: number): Promise<void> {
      await db.$executeRawUnsafe(
        `insert into privacy_request_answers (request_id, service, rows) values ($1::uuid, $2, $3)`,
        requestId,
        service,
        rows,
      );
    },

    /**
     * The tenant's audit entries naming the subject (in lower case), oldest first; of their target
     * ids only the subject's and those that name no account (a read of a class names its others).
     */
    async auditEntriesAbout(tenantId: string, subjectId: string): Promise<Record<string, unknown>[]> {
      return db.$queryRawUnsafe<Record<string, unknown>[]>(
        `select id::text as id, at, actor_id, actor_role, action, resource,
                array(select t from unnest(target_ids) as y(t)
                       where lower(t) = $1
                          or not exists (select 1 from users u where u.id::text = lower(t))) as target_ids,
                request_id, service
           from audit_log
          where tenant_id = $2::uuid and exists (select 1 from unnest(target_ids) as x(t) where lower(t) = $1)
          order by at, id`,
        subjectId,
        tenantId,
      );
    },

    /**
     * The addresses the users are known by in identity: their own, and the pending address of an
     * email change (an email_tokens row of purpose 'email_change'), in lower case.
     */
    async addressesOf(userIds: string[]): Promise<string[]> {
      if (userIds.length === 0) return [];
      const rows = await db.$queryRawUnsafe<{ email: string | null }[]>(
        `select lower(email) as email from users where id = any($1::uuid[])
         union select lower(email) from email_tokens where user_id = any($1::uuid[])`,
        userIds,
      );
      // A student account without email (ADR 015) has none.
      return [...new Set(rows.map((r) => r.email).filter((e): e is string => !!e && e.length > 0))];
    },

    /** The mails to these addresses, their links replaced (a link is a secret while it is valid). */
    async mailsTo(addresses: string[]): Promise<Record<string, unknown>[]> {
      return db.$queryRawUnsafe<Record<string, unknown>[]>(
        `select id::text as id, "to", subject,
                regexp_replace(text, 'https?://[^[:space:]<>"]+', '[link removed]', 'g') as text,
                created_at, sent_at
           from outgoing_mail where lower("to") = any($1::text[]) order by created_at, id`,
        addresses,
      );
    },

    /** The one-time links issued for the users or addresses: never the token's or password's hash. */
    async emailLinksOf(userIds: string[], addresses: string[]): Promise<Record<string, unknown>[]> {
      return db.$queryRawUnsafe<Record<string, unknown>[]>(
        `select purpose, email, created_at, expires_at, used_at,
                nullif(jsonb_strip_nulls(jsonb_build_object('first_name', payload->>'firstName',
                       'last_name', payload->>'lastName', 'role', payload->>'role')), '{}'::jsonb) as details
           from email_tokens where user_id = any($1::uuid[]) or lower(email) = any($2::text[])
          order by created_at`,
        userIds,
        addresses,
      );
    },

    /** The rate-limit counters whose key names one of the words. */
    async rateLimitsNaming(words: string[]): Promise<Record<string, unknown>[]> {
      return db.$queryRawUnsafe<Record<string, unknown>[]>(
        `select key, points, to_timestamp(expire / 1000.0) as expires_at from rate_limits r ${RATE_LIMIT_KEY_NAMES}
          order by key`,
        words,
      );
    },

    /** Deletes the mail to the addresses; returns the rows deleted. */
    async deleteMailsTo(addresses: string[]): Promise<number> {
      return db.$executeRawUnsafe('delete from outgoing_mail where lower("to") = any($1::text[])', addresses);
    },

    async deleteEmailLinksOf(userIds: string[], addresses: string[]): Promise<number> {
      return db.$executeRawUnsafe(
        'delete from email_tokens where user_id = any($1::uuid[]) or lower(email) = any($2::text[])',
        userIds,
        addresses,
      );
    },

    async deleteRateLimitsNaming(words: string[]): Promise<number> {
      return db.$executeRawUnsafe(`delete from rate_limits r ${RATE_LIMIT_KEY_NAMES}`, words);
    },

    /**
     * Keeps (a day) the family ids of the users' live sessions for the gateways' revoked-session
     * list, and forgets those kept longer.
     */
    async keepErasedSessions(userIds: string[]): Promise<void> {
      await db.$executeRawUnsafe("delete from erased_sessions where revoked_at < now() - interval '1 day'");
      await db.$executeRawUnsafe(
        `insert into erased_sessions (family_id, revoked_at)
         select distinct family_id, clock_timestamp() from sessions
          where user_id = any($1::uuid[]) and revoked_at is null and expires_at > now()
         on conflict (family_id) do nothing`,
        userIds,
      );
    },

    /** Takes these (lower-case) addresses out of the audit entries' details; the entries stay. */
    async eraseAuditEmails(emails: string[]): Promise<void> {
      await db.$executeRawUnsafe(
        `update audit_log set details = details - 'email' || '{"emailErased": true}'::jsonb
          where details ? 'email' and lower(details->>'email') = any($1::text[])`,
        emails,
      );
    },

    /**
     * Replaces the (lower-case) ids in every audit entry, in whatever case an entry names them, by
     * their pseudonyms; an actor so named becomes null. Reads every entry (no index finds an id in
     * any case).
     */
    async pseudonymizeAuditIds(ids: string[]): Promise<void> {
      await db.$executeRawUnsafe(
        `update audit_log a set
            target_ids = array(select case when lower(t) = any($1::text[])
                                           then 'erased:' || substr(encode(sha256(convert_to(lower(t), 'UTF8')), 'hex'), 1, 32)
                                           else t end
                                 from unnest(a.target_ids) with ordinality as x(t, n) order by n),
            actor_id = case when a.actor_id::text = any($1::text[]) then null else a.actor_id end
          where a.actor_id = any($1::uuid[]) or exists (select 1 from unnest(a.target_ids) as x(t) where lower(t) = any($1::text[]))`,
        ids,
      );
    },

    async deleteTenantAudit(tenantId: string): Promise<void> {
      await db.$executeRawUnsafe('delete from audit_log where tenant_id = $1::uuid', tenantId);
    },

    /** The tenant's audit entries and privacy requests older than the cutoff; returns the rows deleted. */
    async deleteTenantAuditAndRequestsBefore(tenantId: string, cutoff: Date): Promise<number> {
      const audit = await db.$executeRawUnsafe(
        'delete from audit_log where tenant_id = $1::uuid and at < $2::timestamptz',
        tenantId,
        cutoff,
      );
      const requests = await db.$executeRawUnsafe(
        'delete from privacy_requests where tenant_id = $1::uuid and created_at < $2::timestamptz',
        tenantId,
        cutoff,
      );
      return audit + requests;
    },

    /** Deletes, in batches, the sections of exports older than `days` (the requests stay). */
    async deleteExportSectionsOlderThan(days: number, options: { running?: () => boolean }): Promise<number> {
      return deleteInBatches(
        db,
        'privacy_request_answers',
        `request_id in (select id from privacy_requests where kind = 'export' and created_at < now() - $1 * interval '1 day')`,
        [days],
        options,
      );
    },
  };
}

export type PrivacyRepository = ReturnType<typeof privacyRepository>;
