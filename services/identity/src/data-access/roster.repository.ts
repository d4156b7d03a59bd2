// The roster imports (migration 007): plans, their error rows, and the writes of an apply, each
// batch of users in one transaction with its outbox events, holding a lock on the tenant row that
// conflicts with the district's admin pages' (district.repository.ts), so that the admin rules
// checked there hold at commit.
import type { Prisma } from '../generated/prisma/client.ts';
import type { UserRole } from '../domain/user.ts';
import type {
  ExistingState,
  ExistingUser,
  PlannedClass,
  PlannedUser,
  RosterCounts,
  RosterPlan,
  RowRefusal,
  SyncedClass,
} from '../domain/roster/plan.ts';
import type { RowError } from '../domain/roster/validate.ts';
import type { Db, Tx } from './prisma.ts';
import { batchedOutbox } from './batched-outbox.ts';
import { districtRepository } from './district.repository.ts';
import { findUserRecords } from './users.repository.ts';
import type { UserRecord } from '../domain/user.ts';

export type ImportStatus = 'previewed' | 'running' | 'done' | 'failed';

export interface RosterImportRow {
  id: string;
  tenantId: string;
  createdBy: string;
  mode: 'bulk' | 'delta';
  status: ImportStatus;
  counts: RosterCounts;
  errorCount: number;
  progressDone: number;
  progressTotal: number;
  failure: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const importSelect = {
  id: true,
  tenantId: true,
  createdBy: true,
  mode: true,
  status: true,
  counts: true,
  errorCount: true,
  progressDone: true,
  progressTotal: true,
  failure: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

const toImport = (row: Prisma.RosterImportGetPayload<{ select: typeof importSelect }>): RosterImportRow => ({
  ...row,
  mode: row.mode as RosterImportRow['mode'],
  status: row.status as ImportStatus,
  counts: row.counts as RosterCounts,
});

const CHUNK = 5_000;
function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface UserStateRow {
  source_id: string | null;
  user_id: string;
  tenant_id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  disabled: boolean;
}

const toExisting = (r: UserStateRow): ExistingUser => ({
  userId: r.user_id,
  tenantId: r.tenant_id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  role: r.role as UserRole,
  disabled: r.disabled,
});

/** A planned create not applied (its email was taken since the preview). */
export interface TakenUser {
  sourceId: string;
  userId: string;
}

/** A planned change refused when applying: its sourcedId, the account (its role now), the field and why. */
export interface SkippedUser extends RowRefusal {
  sourceId: string;
  userId: string;
  role: UserRole;
}

/**
 * A planned change of an existing account checked against the account as it is now, `callerId`
 * being the admin applying the import (plan.ts `recheckPlanned`).
 */
export type RecheckUser = (
  planned: PlannedUser,
  current: ExistingUser,
  activeAdmins: number,
  callerId: string,
) => { role: UserRole } | { refused: RowRefusal };

/** A planned class adjusted to what the user batches did, given the class as last sent (if any). */
export type AdjustClass = (planned: PlannedClass, before: SyncedClass | undefined) => PlannedClass;

export function rosterRepository(db: Db) {
  const district = districtRepository(db);
  return {
    /** What earlier imports did in this tenant, and who holds the given emails (any tenant). */
    async loadState(tenantId: string, emails: string[]): Promise<ExistingState> {
      const mappedRows = await db.$queryRawUnsafe<UserStateRow[]>(
        `select r.source_id, u.id as user_id, u.tenant_id, u.email, u.first_name, u.last_name, u.role,
                (u.disabled_at is not null) as disabled
           from roster_users r join users u on u.id = r.user_id
          where r.tenant_id = $1::uuid`,
        tenantId,
      );
      const mapped = new Map(mappedRows.map((r) => [r.source_id!, toExisting(r)]));
      const byEmail = new Map<string, ExistingUser>();
      for (const part of chunks([...new Set(emails)])) {
        const rows = await db.$queryRawUnsafe<UserStateRow[]>(
          `select null as source_id, u.id as user_id, u.tenant_id, u.email, u.first_name, u.last_name, u.role,
                  (u.disabled_at is not null) as disabled
             from users u where lower(u.email) = any($1::text[])`,
          part,
        );
        for (const r of rows) byEmail.set(r.email.toLowerCase(), toExisting(r));
      }
      const classRows = await db.rosterClass.findMany({ where: { tenantId } });
      const classes = new Map<string, SyncedClass>(
        classRows.map((c) => [
          c.sourceId,
          {
            title: c.title,
            subject: c.subject,
            period: c.period,
            teacherUserIds: c.teacherUserIds,
            studentUserIds: c.studentUserIds,
            active: c.active,
            ...knownSchool(c),
          },
        ]),
      );
      const admins = await db.user.findMany({
        where: { tenantId, role: 'admin', disabledAt: null },
        select: { id: true },
      });
      return { tenantId, mapped, byEmail, classes, activeAdminIds: new Set(admins.map((a) => a.id)) };
    },

    /**
     * Stores a previewed plan. The plan and the error rows come as JSON text (serialised by the
     * preview worker): this thread only passes them on; Postgres reads the error rows itself.
     */
    async createImport(input: {
      id: string;
      tenantId: string;
      createdBy: string;
      mode: 'bulk' | 'delta';
      planJson: string;
      /** Planned users + classes. */
      changes: number;
      counts: RosterCounts;
      errorCount: number;
      /** JSON arrays of RowError, each with its `seq`. */
      errorChunks: string[];
    }): Promise<void> {
      await db.$transaction(
        async (tx) => {
          // Raw SQL with the JSON as text: a 50,000-student plan is some 20 MB.
          await tx.$executeRawUnsafe(
            `insert into roster_imports (id, tenant_id, created_by, mode, status, plan, counts, error_count, progress_total)
             values ($1::uuid, $2::uuid, $3::uuid, $4, 'previewed', $5::jsonb, $6::jsonb, $7, $8)`,
            input.id,
            input.tenantId,
            input.createdBy,
            input.mode,
            input.planJson,
            JSON.stringify(input.counts),
            input.errorCount,
            input.changes,
          );
          for (const chunk of input.errorChunks)
            await tx.$executeRawUnsafe(
              `insert into roster_import_errors (import_id, seq, file, line, source_id, field, message)
               select $1::uuid, e.seq, e.file, e.line, e."sourcedId", e.field, e.message
                 from jsonb_to_recordset($2::jsonb)
                      as e(seq int, file text, line int, "sourcedId" text, field text, message text)`,
              input.id,
              chunk,
            );
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    },

    async findImport(tenantId: string, id: string): Promise<RosterImportRow | undefined> {
      const row = await db.rosterImport.findFirst({ where: { id, tenantId }, select: importSelect });
      return row ? toImport(row) : undefined;
    },

    async listImports(tenantId: string, limit: number): Promise<RosterImportRow[]> {
      const rows = await db.rosterImport.findMany({
        where: { tenantId },
        select: importSelect,
        orderBy: { createdAt: 'desc' },
        take: limit,
      });
      return rows.map(toImport);
    },

    async listErrors(importId: string, offset: number, limit: number): Promise<RowError[]> {
      const rows = await db.rosterImportError.findMany({
        where: { importId },
        orderBy: { seq: 'asc' },
        skip: offset,
        take: limit,
      });
      return rows.map((r) => ({
        file: r.file,
        line: r.line,
        sourcedId: r.sourceId,
        field: r.field,
        message: r.message,
      }));
    },

    /** How many users and classes the plan has (each read in slices: readPlanSlice). */
    async planSize(importId: string): Promise<{ users: number; classes: number }> {
      const rows = await db.$queryRawUnsafe<{ users: number; classes: number }[]>(
        `select jsonb_array_length(plan->'users') as users, jsonb_array_length(plan->'classes') as classes
           from roster_imports where id = $1::uuid`,
        importId,
      );
      if (!rows[0]) throw new Error(`roster import ${importId} not found`);
      return rows[0];
    },

    /**
     * `count` planned users or classes from `from`: a plan is read a batch at a time, so that the
     * service never parses a whole plan (some 10 MB of JSON for 20,000 students) at once.
     */
    async readPlanSlice<K extends keyof RosterPlan>(
      importId: string,
      part: K,
      from: number,
      count: number,
    ): Promise<RosterPlan[K]> {
      const rows = await db.$queryRawUnsafe<{ slice: string }[]>(
        `select jsonb_path_query_array(plan->$2, '$[$from to $to]', jsonb_build_object('from', $3::int, 'to', $4::int))::text as slice
           from roster_imports where id = $1::uuid`,
        importId,
        part,
        from,
        from + count - 1,
      );
      if (!rows[0]) throw new Error(`roster import ${importId} not found`);
      return JSON.parse(rows[0].slice) as RosterPlan[K];
    },

    /** previewed (or failed) → running; false when another apply has it or it is done. */
    async claim(tenantId: string, id: string): Promise<boolean> {
      const n = await db.rosterImport.updateMany({
        where: { id, tenantId, status: { in: ['previewed', 'failed'] } },
        data: { status: 'running', startedAt: new Date(), progressDone: 0, failure: null, finishedAt: null },
      });
      return n.count === 1;
    },

    /** Imports left running by a process that stopped without finishing them: failed, to be applied again. */
    async failInterrupted(): Promise<number> {
      const n = await db.rosterImport.updateMany({
        where: { status: 'running' },
        data: {
          status: 'failed',
          finishedAt: new Date(),
          failure: 'The service restarted during the import; apply it again to resume',
        },
      });
      return n.count;
    },

    async progress(id: string, done: number): Promise<void> {
      await db.rosterImport.update({ where: { id }, data: { progressDone: done } });
    },

    async finish(id: string, status: 'done' | 'failed', failure?: string): Promise<void> {
      await db.rosterImport.update({
        where: { id },
        data: { status, finishedAt: new Date(), failure: failure ?? null },
      });
    },

    /**
     * One batch of users in one transaction under the tenant row's lock: creates (one insert; an
     * email taken since the preview skips that row), links, updates and disables (each checked
     * again by `recheck` against the account as it is now: the plan may be stale), the sourcedId
     * mappings, and each changed user's event. A user disabled or given another role is signed
     * out at once. `callerId`: the admin applying. Returns the creates that could not be made, and
     * the refused changes.
     */
    async applyUsers(
      tenantId: string,
      callerId: string,
      batch: PlannedUser[],
      recheck: RecheckUser,
      onChanged: (tx: Tx, registered: UserRecord[], updated: UserRecord[]) => Promise<void>,
    ): Promise<{ taken: TakenUser[]; refused: SkippedUser[] }> {
      return db.$transaction(
        async (tx) => {
          // Serialised with the district-admin changes, which take `for update` on the same row
          // (district.repository.ts changeTenant), and with other batches: the count of active
          // admins read below stays true until this batch commits. `for no key update`, not `for
          // update`: it still conflicts with both, but not with the `for key share` that every
          // insert referencing the tenant (users, email_tokens: a sign-up, an invitation) takes
          // for its foreign key, so those do not wait for each batch of a long import.
          await tx.$queryRawUnsafe(`select id from tenants where id = $1::uuid for no key update`, tenantId);
          const creates = batch.filter((u) => u.action === 'create');
          const others = batch.filter((u) => u.action !== 'create');
          let created = new Set<string>();
          if (creates.length) {
            const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
              `insert into users (id, tenant_id, email, first_name, last_name, role, email_verified_at, disabled_at)
               select u.id, $1::uuid, u.email, u.first_name, u.last_name, u.role, now(),
                      case when u.disabled then now() end
                 from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[])
                      as u(id, email, first_name, last_name, role, disabled)
               on conflict do nothing
               returning id`,
              tenantId,
              creates.map((u) => u.userId),
              creates.map((u) => u.email),
              creates.map((u) => u.firstName),
              creates.map((u) => u.lastName),
              creates.map((u) => u.role),
              creates.map((u) => u.disabled),
            );
            created = new Set(rows.map((r) => r.id));
          }
          // Created by an earlier, interrupted run of this plan: done, not skipped.
          const present = new Set(created);
          const notInserted = creates.filter((u) => !created.has(u.userId)).map((u) => u.userId);
          if (notInserted.length) {
            const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
              `select id from users where tenant_id = $1::uuid and id = any($2::uuid[])`,
              tenantId,
              notInserted,
            );
            for (const r of rows) present.add(r.id);
          }
          const taken = creates
            .filter((u) => !present.has(u.userId))
            .map((u) => ({ sourceId: u.sourceId, userId: u.userId }));
          const current = new Map<string, ExistingUser>();
          if (others.length) {
            const rows = await tx.$queryRawUnsafe<UserStateRow[]>(
              `select null as source_id, u.id as user_id, u.tenant_id, u.email, u.first_name, u.last_name, u.role,
                      (u.disabled_at is not null) as disabled
                 from users u where u.tenant_id = $1::uuid and u.id = any($2::uuid[])`,
              tenantId,
              others.map((u) => u.userId),
            );
            for (const r of rows) current.set(r.user_id, toExisting(r));
          }
          let activeAdmins = await tx.user.count({ where: { tenantId, role: 'admin', disabledAt: null } });
          const refused: SkippedUser[] = [];
          const changed: PlannedUser[] = [];
          for (const planned of others) {
            const now = current.get(planned.userId);
            let u = planned;
            if (now) {
              const verdict = recheck(planned, now, activeAdmins, callerId);
              if ('refused' in verdict) {
                refused.push({ sourceId: planned.sourceId, userId: now.userId, role: now.role, ...verdict.refused });
                continue;
              }
              u = { ...planned, role: verdict.role };
              activeAdmins += Number(u.role === 'admin' && !u.disabled) - Number(now.role === 'admin' && !now.disabled);
            }
            changed.push(u);
            // Only this district's accounts are ever written (a link was matched in this tenant).
            await tx.$executeRawUnsafe(
              `update users
                  set email = $3, first_name = $4, last_name = $5, role = $6,
                      email_verified_at = coalesce(email_verified_at, now()),
                      disabled_at = case when $7 then coalesce(disabled_at, now()) else null end,
                      updated_at = now()
                where id = $1::uuid and tenant_id = $2::uuid`,
              u.userId,
              tenantId,
              u.email,
              u.firstName,
              u.lastName,
              u.role,
              u.disabled,
            );
            // A removed or disabled user's sessions end now, and so do those of a user given another
            // role: their access tokens would otherwise carry the old role until they expire.
            if (u.disabled || (now && now.role !== u.role)) await district.revokeSessions(tx, u.userId);
          }
          const mapped = [...creates.filter((u) => present.has(u.userId)), ...changed];
          if (mapped.length)
            await tx.$executeRawUnsafe(
              `insert into roster_users (tenant_id, source_id, user_id)
               select $1::uuid, m.source_id, m.user_id from unnest($2::text[], $3::uuid[]) as m(source_id, user_id)
               on conflict (tenant_id, source_id) do update set user_id = excluded.user_id`,
              tenantId,
              mapped.map((u) => u.sourceId),
              mapped.map((u) => u.userId),
            );
          const registered = await findUserRecords(tx, [...created]);
          const updated = await findUserRecords(
            tx,
            changed.map((u) => u.userId),
          );
          const outbox = batchedOutbox(tx);
          await onChanged(outbox.tx, registered, updated);
          await outbox.flush();
          return { taken, refused };
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    },

    /**
     * One batch of classes: each adjusted by `adjust` (given the class as last sent) when the user
     * batches skipped someone, members filtered to existing accounts, the state kept, one event each.
     */
    async applyClasses(
      tenantId: string,
      planned: PlannedClass[],
      emit: (tx: Tx, cls: PlannedClass) => Promise<void>,
      adjust?: AdjustClass,
    ): Promise<void> {
      await db.$transaction(
        async (tx) => {
          let batch = planned;
          if (adjust) {
            const rows = await tx.rosterClass.findMany({
              where: { tenantId, sourceId: { in: planned.map((c) => c.sourceId) } },
            });
            const before = new Map(rows.map((c) => [c.sourceId, c]));
            batch = planned.map((c) => {
              const b = before.get(c.sourceId);
              return adjust(
                c,
                b && {
                  title: b.title,
                  subject: b.subject,
                  period: b.period,
                  teacherUserIds: b.teacherUserIds,
                  studentUserIds: b.studentUserIds,
                  active: b.active,
                  ...knownSchool(b),
                },
              );
            });
          }
          const ids = [...new Set(batch.flatMap((c) => [...c.teacherUserIds, ...c.studentUserIds]))];
          const existing = new Set<string>();
          for (const part of chunks(ids)) {
            const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
              `select id from users where tenant_id = $1::uuid and id = any($2::uuid[])`,
              tenantId,
              part,
            );
            for (const r of rows) existing.add(r.id);
          }
          const outbox = batchedOutbox(tx);
          const synced: PlannedClass[] = [];
          for (const c of batch) {
            const cls: PlannedClass = {
              ...c,
              teacherUserIds: c.teacherUserIds.filter((id) => existing.has(id)),
              studentUserIds: c.studentUserIds.filter((id) => existing.has(id)),
            };
            if (cls.teacherUserIds.length === 0 && cls.active) continue;
            synced.push(cls);
            await emit(outbox.tx, cls);
          }
          // The state sent, for the next import to compare with: one statement for the batch.
          if (synced.length)
            await tx.$executeRawUnsafe(
              `insert into roster_classes
                 (tenant_id, source_id, title, subject, period, teacher_user_ids, student_user_ids, active, synced_at,
                  school_id, school_name, grades)
               select $1::uuid, c."sourceId", c.title, c.subject, c.period, c."teacherUserIds", c."studentUserIds", c.active, now(),
                      c."schoolId", c."schoolName", coalesce(c.grades, '{}')
                 from jsonb_to_recordset($2::jsonb) as c("sourceId" text, title text, subject text, period text,
                      "teacherUserIds" uuid[], "studentUserIds" uuid[], active boolean,
                      "schoolId" text, "schoolName" text, grades text[])
               on conflict (tenant_id, source_id) do update
                  set title = excluded.title, subject = excluded.subject, period = excluded.period,
                      teacher_user_ids = excluded.teacher_user_ids, student_user_ids = excluded.student_user_ids,
                      active = excluded.active, synced_at = excluded.synced_at,
                      school_id = excluded.school_id, school_name = excluded.school_name, grades = excluded.grades`,
              tenantId,
              JSON.stringify(synced),
            );
          await outbox.flush();
        },
        { timeout: 120_000, maxWait: 30_000 },
      );
    },

    async addErrors(importId: string, errors: RowError[]): Promise<void> {
      if (!errors.length) return;
      await db.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ next: number }[]>(
          `select coalesce(max(seq) + 1, 0)::int as next from roster_import_errors where import_id = $1::uuid`,
          importId,
        );
        const next = rows[0]?.next ?? 0;
        await tx.rosterImportError.createMany({
          data: errors.map((e, i) => ({
            importId,
            seq: next + i,
            file: e.file,
            line: e.line,
            sourceId: e.sourcedId,
            field: e.field,
            message: e.message,
          })),
        });
        await tx.rosterImport.update({ where: { id: importId }, data: { errorCount: { increment: errors.length } } });
      });
    },
  };
}

export type RosterRepository = ReturnType<typeof rosterRepository>;

/** A sent state's school and grades, when kept (null: sent before migrations/015, not compared). */
function knownSchool(c: { schoolId: string | null; schoolName: string | null; grades: string[] }) {
  return c.schoolId === null ? {} : { schoolId: c.schoolId, schoolName: c.schoolName ?? '', grades: c.grades };
}
