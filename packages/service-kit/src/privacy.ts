// Privacy operations every service that holds student data takes part in (docs/adr/009):
// - answers identity's StudentExportRequested / UserDeleted / TenantDeleted (with a request id)
//   on checkpoint.privacy.v1, through its outbox, in the inbox transaction of the request;
// - keeps each tenant's retention period (TenantRetentionChanged) and runs a retention job once
//   per interval across all replicas;
// - reports who read or changed student data (AuditEntryRecorded) from its API.
import {
  AuditEntryRecordedSchema,
  collectSubjectRows,
  create,
  deleteFoundRows,
  enqueueEvent,
  exportDocument,
  inboxConsumer,
  splitText,
  sqlExecutor,
  StudentDataExportedSchema,
  SubjectDataErasedSchema,
  timestampFromDate,
  type SqlExecutor,
  type SubscribeOptions,
  type TransactionRunner,
  PollingLoop,
} from '@checkpoint/events';
import type { Request, RequestHandler } from 'express';
import type pg from 'pg';
import { clientAddress, peerClaims, readCaller } from './caller.ts';
import { inTransaction, LIFT_STATEMENT_TIMEOUT } from './database.ts';
import type { Logger } from './logger.ts';

export const IDENTITY_TOPIC = 'checkpoint.identity.v1';
export function poolTransactions(pool: pg.Pool): TransactionRunner<SqlExecutor> {
  return { $transaction: (fn) => inTransaction(pool, (client) => fn(sqlExecutor(client))) };
}

export interface BeforeErase {
  rows?: number;
  after?: () => Promise<void>;
}

export interface PrivacyParticipant {
  /** The service's name (the section's name in an export, the answer's `service`). */
  service: string;
  /**
   * Before the rows of a user are deleted: keep running figures right. May return a step to run
   * after, and the rows of the user it erased itself (counted in the erasure's answer with the
   * sweep's).
   */
  beforeEraseUser?: (tx: SqlExecutor, userId: string) => Promise<BeforeErase | void>;
  /** Deletes the tenant's student activity older than `cutoff`; returns the rows deleted. */
  retention: (tx: SqlExecutor, tenantId: string, cutoff: Date) => Promise<number>;
  /**
   * What the student's rows refer to, for a reader of the export (class names, assessment titles,
   * question texts): rows that are not about the student, so not in their tables, but without
   * which a parent cannot read them. Kept apart as the section's `context`.
   */
  exportContext?: (tx: SqlExecutor, userId: string) => Promise<Record<string, Record<string, unknown>[]>>;
}

/** The service's subscription to identity's privacy events (its own consumer group). */
export function privacySubscription(pool: pg.Pool, participant: PrivacyParticipant): SubscribeOptions {
  const groupId = `${participant.service}-privacy`;
  const source = participant.service;
  return {
    groupId,
    topics: [IDENTITY_TOPIC],
    ...inboxConsumer(poolTransactions(pool), groupId, {
      'checkpoint.identity.v1.StudentExportRequested': async (tx, m) => {
        if (!m.requestId || !m.userId) return;
        await tx.$executeRawUnsafe(LIFT_STATEMENT_TIMEOUT);
        const doc = {
          ...exportDocument(await collectSubjectRows(tx, [m.userId], { skip: ['privacy_jobs'] })),
          ...(participant.exportContext ? { context: await participant.exportContext(tx, m.userId) } : {}),
        };
        const parts = splitText(JSON.stringify(doc));
        for (const [part, json] of parts.entries()) {
          const id = await enqueueEvent(tx, {
            source,
            schema: StudentDataExportedSchema,
            message: create(StudentDataExportedSchema, {
              requestId: m.requestId,
              tenantId: m.tenantId,
              service: source,
              part,
              parts: parts.length,
              json,
            }),
            key: m.requestId,
            tenantId: m.tenantId,
          });
          // The student's data leaves the outbox as soon as it is published.
          await tx.$executeRawUnsafe(
            `update outbox set headers = headers || '{"x-checkpoint-erase-after-publish":"1"}'::jsonb where id = $1::uuid`,
            id,
          );
        }
      },
      'checkpoint.identity.v1.UserDeleted': async (tx, m) => {
        if (!m.userId) return;
        await tx.$executeRawUnsafe(LIFT_STATEMENT_TIMEOUT);
        const before = await participant.beforeEraseUser?.(tx, m.userId);
        const found = await collectSubjectRows(tx, [m.userId], { skip: ['privacy_jobs'] });
        const rows = (before?.rows ?? 0) + (await deleteFoundRows(tx, found, [m.userId]));
        await before?.after?.();
        if (m.requestId)
          await answerErased(tx, source, { requestId: m.requestId, tenantId: m.tenantId, scope: 'user', rows });
      },
      'checkpoint.identity.v1.TenantDeleted': async (tx, m) => {
        if (!m.tenantId) return;
        await tx.$executeRawUnsafe(LIFT_STATEMENT_TIMEOUT);
        const seeds = [m.tenantId, ...m.userIds];
        const found = await collectSubjectRows(tx, seeds, { skip: ['privacy_jobs'] });
        const rows = await deleteFoundRows(tx, found, seeds);
        await answerErased(tx, source, { requestId: m.requestId, tenantId: m.tenantId, scope: 'tenant', rows });
      },
      'checkpoint.identity.v1.TenantRetentionChanged': async (tx, m) => {
        if (!m.tenantId) return;
        if (m.retentionDays <= 0) {
          await tx.$executeRawUnsafe('delete from privacy_retention where tenant_id = $1::uuid', m.tenantId);
        } else {
          await tx.$executeRawUnsafe(
            `insert into privacy_retention (tenant_id, retention_days) values ($1::uuid, $2)
             on conflict (tenant_id) do update set retention_days = excluded.retention_days, updated_at = now()`,
            m.tenantId,
            Math.min(3650, Math.max(30, m.retentionDays)),
          );
        }
      },
    }),
  };
}

async function answerErased(
  tx: SqlExecutor,
  source: string,
  a: { requestId: string; tenantId: string; scope: 'user' | 'tenant'; rows: number },
): Promise<void> {
  const id = await enqueueEvent(tx, {
    source,
    schema: SubjectDataErasedSchema,
    message: create(SubjectDataErasedSchema, {
      requestId: a.requestId,
      tenantId: a.tenantId,
      service: source,
      scope: a.scope,
      rows: BigInt(a.rows),
      occurredAt: timestampFromDate(new Date()),
    }),
    key: a.requestId || a.tenantId,
    tenantId: a.tenantId,
  });
  if (a.scope === 'tenant') {
    await tx.$executeRawUnsafe(
      `update outbox set headers = headers || '{"x-checkpoint-erase-after-publish":"1"}'::jsonb where id = $1::uuid`,
      id,
    );
  }
}

/**
 * Runs `participant.retention` for every tenant with a retention period, once per `intervalMs`
 * across all replicas: a row in privacy_jobs says when it last ran, and the replica that moves it
 * forward (under an advisory lock) is the one that runs.
 */
export class RetentionJob {
  private readonly loop: PollingLoop;

  constructor(
    private readonly pool: pg.Pool,
    private readonly participant: PrivacyParticipant,
    private readonly options: {
      intervalMs: number;
      logger: Logger;
      now?: () => Date;
      /** The tenants with a period: defaults to the privacy_retention table. */
      tenantsSql?: string;
    },
  ) {
    this.loop = new PollingLoop({
      name: 'privacy retention job',
      pass: async () => void (await this.runIfDue()),
      // Checked 20 times per interval (at most once a minute): a replica that died mid-interval is covered.
      intervalMs: Math.max(250, Math.min(60_000, Math.floor(options.intervalMs / 20))),
      pace: 'fixed-rate',
      onError: (err) => options.logger.warn({ err }, 'privacy retention job failed'),
    });
  }

  start(): void {
    void this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Runs the job when its interval has passed since the last run anywhere; returns rows deleted, or undefined when not due. */
  async runIfDue(): Promise<number | undefined> {
    const now = this.options.now?.() ?? new Date();
    return inTransaction(this.pool, async (client) => {
      const lock = await client.query<{ locked: boolean }>(
        "select pg_try_advisory_xact_lock(hashtext('checkpoint.privacy-retention:' || current_schema())) as locked",
      );
      if (!lock.rows[0]?.locked) return undefined;
      const due = await client.query(
        `insert into privacy_jobs (name, last_run_at) values ('retention', $1)
         on conflict (name) do update set last_run_at = excluded.last_run_at
           where privacy_jobs.last_run_at <= $1::timestamptz - $2 * interval '1 millisecond'
         returning name`,
        [now, this.options.intervalMs],
      );
      if (due.rowCount === 0) return undefined;
      // A backlog of deletes may take longer than a request may; were it cancelled each time, it
      // would never shrink.
      await client.query(LIFT_STATEMENT_TIMEOUT);
      const tenants = await client.query<{ tenant_id: string; retention_days: number }>(
        this.options.tenantsSql ?? 'select tenant_id, retention_days from privacy_retention',
      );
      const tx = sqlExecutor(client);
      let deleted = 0;
      for (const t of tenants.rows) {
        const cutoff = new Date(now.getTime() - t.retention_days * 86_400_000);
        deleted += await this.participant.retention(tx, t.tenant_id, cutoff);
      }
      if (deleted > 0) this.options.logger.info({ deleted }, 'privacy retention: old student activity deleted');
      return deleted;
    });
  }
}

/** Deletes rows of `table` of the tenant whose `column` is older than the cutoff. */
export async function deleteOlderThan(
  tx: SqlExecutor,
  table: string,
  column: string,
  tenantId: string,
  cutoff: Date,
): Promise<number> {
  return tx.$executeRawUnsafe(
    `delete from "${table}" where tenant_id = $1::uuid and "${column}" < $2::timestamptz`,
    tenantId,
    cutoff,
  );
}

export type AuditAction = 'read' | 'change' | 'export' | 'delete';

export interface AuditedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express-style template, e.g. /api/classes/:id/grid */
  path: string;
  action: AuditAction;
  /**
   * Query parameters that name targets too (e.g. classId); a comma-separated value (classIds=a,b)
   * names each of its ids.
   */
  queryTargets?: string[];
  /**
   * The students whose data the call reads, when its path names something else (a result): a
   * query of the service's own tables given the path's first id as $1::text, returning `id`
   * (text). They are added to the entry's targets, so a search by the student finds the read.
   */
  subjectsSql?: string;
}

/**
 * An entry names at most this many targets (each at most TARGET_ID_MAX characters): as many as the
 * widest read names (a report over up to 200 classes), so that none of them goes unrecorded.
 */
export const AUDIT_TARGETS_MAX = 200;
const TARGET_ID_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A target as the audit log keeps it: a UUID in lower case (the services look ids up in any case,
 * so `…/students/AB12…` names the same student as `…/students/ab12…`, and the audit query, the
 * student's export and the pseudonymisation of a deleted student find it by its one spelling).
 */
export function auditTargetId(value: string): string {
  const id = value.trim();
  return UUID.test(id) ? id.toLowerCase() : id.slice(0, TARGET_ID_MAX);
}

/**
 * The spellings of ids to look up in target_ids through its index (`target_ids && spellings`): a
 * UUID in lower case (as entries are written) and in upper case (as a writer from before identity's
 * migration 010 may have kept it, during a rolling upgrade); anything else as it is.
 */
export function auditTargetSpellings(ids: string[]): string[] {
  return [...new Set(ids.flatMap((id) => (UUID.test(id) ? [id.toLowerCase(), id.toUpperCase()] : [id])))];
}

function compile(route: AuditedRoute) {
  const names: string[] = [];
  const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return {
    route,
    // Any case: the API's routes are case-sensitive (ApiRouter), but were a route ever matched in
    // another case, its call must still be audited rather than pass unrecorded.
    regex: new RegExp(`^${pattern}/?$`, 'i'),
    names,
    resource: `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
  };
}

/** A path or part of one, percent-decoded; as it is when it is not valid percent-encoding. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The ids a call names: its path's parameters, then its query targets (lists split), each once, at most AUDIT_TARGETS_MAX. */
function targetsOf(req: Request, match: ReturnType<typeof compile>): string[] {
  const values = (match.regex.exec(req.path)?.slice(1) ?? []).map(safeDecode);
  for (const name of match.route.queryTargets ?? []) {
    const v = req.query[name];
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item === 'string') values.push(...item.split(','));
    }
  }
  const targets: string[] = [];
  for (const value of values) {
    const id = auditTargetId(value);
    if (id && !targets.includes(id)) targets.push(id);
    if (targets.length === AUDIT_TARGETS_MAX) break;
  }
  return targets;
}

/**
 * Records an AuditEntryRecorded event (through the outbox, so it reaches identity's audit log even
 * when Kafka is down) for each successful call of the listed routes made by a signed-in user.
 * Written when the response finished (2xx/3xx only: a refused call read nothing).
 */
export function auditTrail(options: {
  pool: pg.Pool;
  service: string;
  routes: AuditedRoute[];
  logger: Logger;
}): RequestHandler {
  const compiled = options.routes.map(compile);
  const db = sqlExecutor(options.pool);
  return (req, res, next) => {
    const path = req.path;
    const match = compiled.find((c) => c.route.method === req.method && c.regex.test(path));
    if (match) {
      res.on('finish', () => {
        if (res.statusCode >= 400) return;
        const caller = readCaller(req);
        // Who read or changed student data: teachers and admins (a student reading their own is not audited).
        if (!caller || caller.role === 'student') return;
        void writeAuditEntry(db, options.service, req, match, caller).catch((err: unknown) =>
          options.logger.error({ err }, 'audit entry not written'),
        );
      });
    }
    next();
  };
}

async function writeAuditEntry(
  db: SqlExecutor,
  service: string,
  req: Request,
  match: ReturnType<typeof compile>,
  caller: NonNullable<ReturnType<typeof readCaller>>,
): Promise<void> {
  const targetIds = targetsOf(req, match);
  if (match.route.subjectsSql && targetIds[0] && UUID.test(targetIds[0])) {
    const subjects = await db.$queryRawUnsafe<{ id: string }[]>(match.route.subjectsSql, targetIds[0]);
    for (const s of subjects) {
      const id = auditTargetId(String(s.id));
      if (id && !targetIds.includes(id) && targetIds.length < AUDIT_TARGETS_MAX) targetIds.push(id);
    }
  }
  await enqueueEvent(db, {
    source: service,
    schema: AuditEntryRecordedSchema,
    message: create(AuditEntryRecordedSchema, {
      tenantId: caller.tenantId,
      actorId: caller.userId,
      actorRole: caller.role,
      action: match.route.action,
      resource: match.resource,
      targetIds,
      requestId: peerClaims(req)?.requestId ?? String((req as { id?: unknown }).id ?? ''),
      clientAddress: clientAddress(req),
      occurredAt: timestampFromDate(new Date()),
      service,
    }),
    key: caller.tenantId,
    tenantId: caller.tenantId,
  });
}
