// A district's OneRoster import: upload → validate every row → plan (stored, previewed) → apply in
// the background, in batches, each batch one transaction with its outbox events. Applying the same
// file again changes nothing (sourcedId mappings, unchanged rows and classes are skipped).
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, RosterClassSyncedSchema } from '@checkpoint/events';
import { AppError, csvText, NotFoundError } from '@checkpoint/service-kit';
import type { Logger } from '@checkpoint/service-kit';
import type { RosterImportRow, RosterRepository } from '../../data-access/roster.repository.ts';
import type { Tx } from '../../data-access/prisma.ts';
import type { UserEventWriter } from '../ports.ts';
import type { UserRecord } from '../user.ts';
import type { AuditInput } from '../privacy/privacy.use-case.ts';
import type { RosterFileName } from './oneroster.ts';
import { recheckPlanned, withoutSkipped, type PlannedClass, type RosterCounts, type SkippedMembers } from './plan.ts';
import { previewWorkers } from './preview-worker.ts';
import type { Upload } from './preview.ts';
import type { RowError } from './validate.ts';
/** Users per transaction: large enough to be fast, small enough to keep locks and memory short. */
export const USER_BATCH = 500;
export const CLASS_BATCH = 100;

export interface RosterImportDeps {
  roster: RosterRepository;
  events: UserEventWriter;
  source: string;
  logger: Logger;
  /** Largest upload accepted (ROSTER_UPLOAD_LIMIT_BYTES). */
  uploadLimitBytes: number;
  /** The heap limit of a preview's worker thread, in MiB (ROSTER_PREVIEW_MEMORY_MB). */
  previewMemoryMb: number;
  /** Appends an entry to the district's audit log (privacy.use-case.ts recordAudit, in its own transaction). */
  audit: (entry: AuditInput) => Promise<void>;
  /** Mails the accounts just created how to sign in (email-links.use-case.ts sendRosterWelcome), in their batch. */
  welcome: (tx: Tx, created: UserRecord[]) => Promise<void>;
}

export interface ImportView {
  id: string;
  mode: 'bulk' | 'delta';
  status: RosterImportRow['status'];
  progress: { done: number; total: number };
  counts: RosterCounts;
  errorCount: number;
  failure: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export function importView(row: RosterImportRow): ImportView {
  return {
    id: row.id,
    mode: row.mode,
    status: row.status,
    progress: { done: row.progressDone, total: row.progressTotal },
    counts: withEveryCount(row.counts),
    errorCount: row.errorCount,
    failure: row.failure,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Counts as this version keeps them (an import planned before `read` and `dropped` existed has neither). */
function withEveryCount(counts: RosterCounts): RosterCounts {
  const out: RosterCounts = {};
  for (const [file, c] of Object.entries(counts))
    if (c) out[file as RosterFileName] = { ...c, read: c.read ?? 0, dropped: c.dropped ?? 0 };
  return out;
}

export function rosterImports(deps: RosterImportDeps) {
  const { roster } = deps;
  const workers = previewWorkers({
    uploadLimitBytes: deps.uploadLimitBytes,
    memoryMb: deps.previewMemoryMb,
    logger: deps.logger,
  });
  const running = new Set<Promise<void>>();
  /** Set at shutdown: a running apply stops after its current batch (apply again to resume). */
  let stopping = false;

  async function findOwn(tenantId: string, id: string): Promise<RosterImportRow> {
    const row = await roster.findImport(tenantId, id);
    if (!row) throw new NotFoundError('Roster import not found');
    return row;
  }

  /**
   * Applies the plan as `callerId` (the admin applying it): every user batch first, then the
   * classes, without the users the user batches skipped (known by then).
   */
  async function run(tenantId: string, id: string, callerId: string): Promise<void> {
    const size = await roster.planSize(id);
    let done = 0;
    const lateErrors: RowError[] = [];
    const skipped: SkippedMembers = new Map();
    for (let i = 0; i < size.users; i += USER_BATCH) {
      if (stopping) throw new Interrupted();
      const batch = await roster.readPlanSlice(id, 'users', i, USER_BATCH);
      const { taken, refused } = await roster.applyUsers(
        tenantId,
        callerId,
        batch,
        recheckPlanned,
        async (tx, registered, updated) => {
          for (const user of registered) await deps.events.registered(tx, user);
          for (const user of updated) await deps.events.updated(tx, user);
          if (registered.length) await deps.welcome(tx, registered);
        },
      );
      for (const t of taken) skipped.set(t.userId, null);
      for (const r of refused) skipped.set(r.userId, r.role);
      for (const t of taken)
        lateErrors.push({
          file: 'users.csv',
          line: 0,
          sourcedId: t.sourceId,
          field: 'email',
          message: 'the email was taken by another account after the preview; the user was skipped',
        });
      for (const r of refused)
        lateErrors.push({
          file: 'users.csv',
          line: 0,
          sourcedId: r.sourceId,
          field: r.field,
          message: `${r.message} (found when applying: the district changed since the preview); the user was skipped`,
        });
      done += batch.length;
      await roster.progress(id, done);
    }
    for (let i = 0; i < size.classes; i += CLASS_BATCH) {
      if (stopping) throw new Interrupted();
      const batch = await roster.readPlanSlice(id, 'classes', i, CLASS_BATCH);
      await roster.applyClasses(
        tenantId,
        batch,
        (tx, cls) => emitClass(tx, tenantId, cls),
        skipped.size ? (cls, before) => withoutSkipped(cls, skipped, before) : undefined,
      );
      done += batch.length;
      await roster.progress(id, done);
    }
    await roster.addErrors(id, lateErrors);
  }

  async function emitClass(tx: Tx, tenantId: string, cls: PlannedClass): Promise<void> {
    await enqueueEvent(tx, {
      source: deps.source,
      schema: RosterClassSyncedSchema,
      message: create(RosterClassSyncedSchema, {
        tenantId,
        sourceId: cls.sourceId,
        title: cls.title,
        subject: cls.subject,
        period: cls.period ?? '',
        teacherUserIds: cls.teacherUserIds,
        studentUserIds: cls.studentUserIds,
        active: cls.active,
        schoolId: cls.schoolId ?? '',
        schoolName: cls.schoolName ?? '',
        grades: cls.grades ?? [],
        occurredAt: timestampNow(),
      }),
      key: `${tenantId}:${cls.sourceId}`,
      tenantId,
    });
  }

  return {
    /** Validates and plans an upload; nothing is applied yet. */
    async preview(caller: { tenantId: string; userId: string }, upload: Upload) {
      const planned = await workers.preview({
        upload,
        tenantId: caller.tenantId,
        callerId: caller.userId,
        loadState: (emails) => roster.loadState(caller.tenantId, emails),
      });
      const id = randomUUID();
      await roster.createImport({
        id,
        tenantId: caller.tenantId,
        createdBy: caller.userId,
        mode: planned.mode,
        planJson: planned.planJson,
        changes: planned.changes,
        counts: planned.counts,
        errorCount: planned.errorCount,
        errorChunks: planned.errorChunks,
      });
      const row = await findOwn(caller.tenantId, id);
      return { ...importView(row), errors: planned.firstErrors };
    },

    async get(tenantId: string, id: string, errorsOffset: number, errorsLimit: number) {
      const row = await findOwn(tenantId, id);
      return { ...importView(row), errors: await roster.listErrors(id, errorsOffset, errorsLimit) };
    },

    async list(tenantId: string, limit: number) {
      return (await roster.listImports(tenantId, limit)).map(importView);
    },

    /** Every error row of an import, for the CSV download. */
    async allErrors(tenantId: string, id: string): Promise<RowError[]> {
      await findOwn(tenantId, id);
      return roster.listErrors(id, 0, Number.MAX_SAFE_INTEGER);
    },

    /**
     * Starts applying in the background as the caller (an admin of the district, not necessarily
     * the one who previewed it: the re-check protects the caller's own account); answers at once
     * with the import now running.
     */
    async apply(caller: { tenantId: string; userId: string }, id: string): Promise<ImportView> {
      const { tenantId } = caller;
      const row = await findOwn(tenantId, id);
      if (!(await roster.claim(tenantId, id)))
        throw new AppError(
          'conflict',
          'import_not_applicable',
          `This import is ${row.status}; it cannot be applied now`,
        );
      // Who applied which import, with what it changes (the preview's counts): read in names later.
      await deps.audit({
        tenantId,
        actorId: caller.userId,
        actorRole: 'admin',
        action: 'change',
        resource: 'POST /api/district/roster/imports/{id}/apply',
        targetIds: [],
        event: 'roster.applied',
        details: { importId: id, mode: row.mode, counts: row.counts, errorCount: row.errorCount },
      });
      const job = run(tenantId, id, caller.userId)
        .then(() => roster.finish(id, 'done'))
        .catch(async (err) => {
          const interrupted = err instanceof Interrupted;
          if (!interrupted) deps.logger.error({ err, importId: id }, 'roster import failed');
          const why = interrupted
            ? 'The service restarted during the import'
            : 'The import stopped on an unexpected error';
          await roster.finish(id, 'failed', `${why}; apply it again to resume`).catch(() => {});
        })
        .finally(() => running.delete(job));
      running.add(job);
      return importView(await findOwn(tenantId, id));
    },

    /**
     * At start: an import still `running` was cut off (a crash; a graceful stop marks it itself):
     * it becomes `failed`, which may be applied again. With several replicas, one starting while
     * another applies marks that one failed too; applying again is harmless (every step idempotent).
     */
    recoverInterrupted: () => roster.failInterrupted(),

    /** Stops the applies in progress after their current batch and waits for them (shutdown). */
    async stop(): Promise<void> {
      stopping = true;
      await this.idle();
    },

    /** Waits for the applies in progress (tests). */
    async idle(): Promise<void> {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

export type RosterImports = ReturnType<typeof rosterImports>;

class Interrupted extends Error {}

/** The error rows as CSV (file,line,sourcedId,field,message), by the shared writer. */
export function errorsCsv(errors: RowError[]): string {
  const header = ['file', 'line', 'sourcedId', 'field', 'message'];
  return csvText([header, ...errors.map((e) => [e.file, e.line, e.sourcedId, e.field, e.message])]);
}
