// The analytics service's part in privacy operations (docs/adr/009), events in → events out on
// real Postgres: a student's export holds their read-model rows; their deletion removes every row
// naming them, keeps the running figures equal to a recount and confirms with the request id; a
// district's deletion empties the district; retention deletes old results through the figures.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditEntryRecordedSchema,
  fromBinary,
  StudentDataExportedSchema,
  StudentExportRequestedSchema,
  SubjectDataErasedSchema,
  TenantDeletedSchema,
  TenantRetentionChangedSchema,
  UserDeletedSchema,
  type BusMessage,
} from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { gatewayHeaders } from '@checkpoint/testkit';
import { analyticsPrivacy } from '../src/messaging/privacy.consumer.ts';
import {
  call,
  classStory,
  event,
  eventually,
  figuresAndRecount,
  startAnalyticsService,
  type Harness,
} from './helpers.ts';

let h: Harness;
const answers: BusMessage[] = [];

beforeAll(async () => {
  h = await startAnalyticsService();
  await h.bus.subscribe({
    groupId: 'test-identity',
    topics: ['checkpoint.privacy.v1'],
    handler: async (m) => void answers.push(m),
  });
});
afterAll(() => h?.stop());

/** Columns of every table of the schema where `id` appears (as text, inside json, in bytea). */
async function whereFound(id: string): Promise<string[]> {
  const { rows } = await h.sql.query<{ t: string; c: string; type: string }>(
    `select table_name as t, column_name as c, data_type as type from information_schema.columns
      where table_schema = current_schema()`,
  );
  const hits: string[] = [];
  for (const r of rows) {
    const test =
      r.type === 'bytea' ? `position(convert_to($1, 'UTF8') in "${r.c}") > 0` : `strpos("${r.c}"::text, $1) > 0`;
    const { rows: n } = await h.sql.query(`select count(*)::int as n from "${r.t}" where ${test}`, [id]);
    if (n[0].n > 0) hits.push(`${r.t}.${r.c}`);
  }
  return hits;
}

const answersOf = <T>(type: string, decode: (m: BusMessage) => T) =>
  answers.filter((m) => m.headers.ce_type === type).map(decode);

/** The audit entries sent for `actorId`'s calls. */
const auditEntriesBy = (actorId: string) =>
  answersOf('checkpoint.privacy.v1.AuditEntryRecorded', (m) => fromBinary(AuditEntryRecordedSchema, m.value)).filter(
    (e) => e.actorId === actorId,
  );

describe('privacy operations in analytics', () => {
  it('when a student is exported, then the section holds their results and answers, not the classmates’', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const ada = s.students[0]!;
    const requestId = randomUUID();
    await h.bus.publish([
      event(StudentExportRequestedSchema, { requestId, tenantId: s.tenantId, userId: ada.id }, ada.id, s.tenantId),
    ]);
    const parts = await eventually(
      async () =>
        answersOf('checkpoint.privacy.v1.StudentDataExported', (m) =>
          fromBinary(StudentDataExportedSchema, m.value),
        ).filter((p) => p.requestId === requestId),
      (p) => p.length > 0 && p.length === p[0]!.parts,
    );
    const doc = JSON.parse(parts.map((p) => p.json).join(''));
    expect(parts[0]!.service).toBe('analytics');
    expect(doc.tables.people).toHaveLength(1);
    expect(doc.tables.results.map((r: { student_id: string }) => r.student_id)).toEqual([ada.id]);
    expect(doc.tables.result_answers.length).toBeGreaterThan(0);
    // The names the rows refer to, for the family's document: class, assessment, questions.
    expect(doc.context.classes).toEqual([
      expect.objectContaining({ name: 'Biology', subject: 'Science', period: '3', teacher_name: expect.any(String) }),
    ]);
    expect(doc.context.assessments).toEqual([expect.objectContaining({ title: 'Photosynthesis' })]);
    expect(doc.context.questions.map((q: { question_text: string }) => q.question_text)).toContain(
      'Where does photosynthesis happen?',
    );
    for (const other of s.students.slice(1)) expect(JSON.stringify(doc)).not.toContain(other.id);
  });

  it('when a student is deleted with a request id, then no row names them, the figures equal a recount, and it is confirmed', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const ben = s.students[1]!;
    const requestId = randomUUID();
    await h.bus.publish([
      event(UserDeletedSchema, { userId: ben.id, tenantId: s.tenantId, requestId }, ben.id, s.tenantId),
    ]);
    const confirmed = await eventually(
      async () =>
        answersOf('checkpoint.privacy.v1.SubjectDataErased', (m) =>
          fromBinary(SubjectDataErasedSchema, m.value),
        ).filter((a) => a.requestId === requestId),
      (a) => a.length === 1,
    );
    expect(confirmed[0]).toMatchObject({ service: 'analytics', scope: 'user', tenantId: s.tenantId });
    expect(
      await eventually(
        () => whereFound(ben.id),
        (hits) => hits.length === 0,
      ),
    ).toEqual([]);
    const { kept, recount } = await figuresAndRecount(h, s.tenantId);
    expect(kept).toEqual(recount);
    expect(await whereFound(s.students[0]!.id)).not.toEqual([]);
  });

  it('when a student with results is deleted, then the confirmation counts the rows erased, not 0', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const cy = s.students[2]!;
    const own = `select (select count(*) from people where user_id = $1)
                      + (select count(*) from memberships where student_id = $1)
                      + (select count(*) from results where student_id = $1)
                      + (select count(*) from result_answers a join results r using (result_id) where r.student_id = $1)
                      + (select count(*) from practice_completions where student_id = $1)
                      + (select count(*) from attempt_progress where student_id = $1)
                      + (select count(*) from student_figures where student_id = $1)
                      + (select count(*) from digest_items where user_id = $1 or subject_id = $1)
                      + (select count(*) from notification_settings where user_id = $1)
                      + (select count(*) from reminders_sent where student_id = $1) as n`;
    // Counted once the whole story is in the read model (the raise by practice comes last); the
    // consumers may still be at it when publish returns.
    await eventually(
      async () =>
        (
          await h.sql.query<{ practice: number; raised: number; figures: number }>(
            `select (select count(*) from practice_completions where student_id = $1)::int as practice,
                    (select count(*) from results where student_id = $1 and level = 'at')::int as raised,
                    (select count(*) from student_figures where student_id = $1)::int as figures`,
            [cy.id],
          )
        ).rows[0]!,
      (r) => r.practice === 1 && r.raised === 1 && r.figures === 1,
    );
    const { rows } = await h.sql.query<{ n: string }>(own, [cy.id]);
    const expected = Number(rows[0]!.n);
    expect(expected).toBeGreaterThan(3);
    const requestId = randomUUID();
    await h.bus.publish([
      event(UserDeletedSchema, { userId: cy.id, tenantId: s.tenantId, requestId }, cy.id, s.tenantId),
    ]);
    const confirmed = await eventually(
      async () =>
        answersOf('checkpoint.privacy.v1.SubjectDataErased', (m) =>
          fromBinary(SubjectDataErasedSchema, m.value),
        ).filter((a) => a.requestId === requestId),
      (a) => a.length === 1,
    );
    expect(Number(confirmed[0]!.rows)).toBe(expected);
    const { rows: left } = await h.sql.query<{ n: string }>(own, [cy.id]);
    expect(Number(left[0]!.n)).toBe(0);
  });

  it('when retention is set and the job runs, then the district’s old results go and the figures equal a recount', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    await h.bus.publish([
      event(TenantRetentionChangedSchema, { tenantId: s.tenantId, retentionDays: 30 }, s.tenantId, s.tenantId),
    ]);
    const { rows } = await h.sql.query('select retention_days from privacy_retention where tenant_id = $1', [
      s.tenantId,
    ]);
    expect(rows).toEqual([{ retention_days: 30 }]);
    // The story's results are from 2026-11-20: 40 days later they are past the period.
    const job = new RetentionJob(h.sql, analyticsPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
      now: () => new Date(Date.UTC(2026, 11, 30)),
    });
    expect(await job.runIfDue()).toBeGreaterThanOrEqual(3);
    const left = await h.sql.query('select count(*)::int as n from results where tenant_id = $1', [s.tenantId]);
    expect(left.rows[0].n).toBe(0);
    const { kept, recount } = await figuresAndRecount(h, s.tenantId);
    expect(kept).toEqual(recount);
  });

  it('when a teacher reads or exports a report of listed classes (classIds), then the audit entry names them', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const audited = async () => auditEntriesBy(s.teacher.userId);
    // A list, in upper case as a client may send it: the entry names each class once, in lower case.
    const classIds = encodeURIComponent(`${s.classId.toUpperCase()},${s.classId}`);
    const read = await call(h, s.teacher, 'GET', `/api/reports?classIds=${classIds}`);
    expect(read.status).toBe(200);
    const [entry] = await eventually(audited, (e) => e.length === 1);
    expect(entry).toMatchObject({ resource: 'GET /api/reports', action: 'read', targetIds: [s.classId] });
    const exported = await fetch(`${h.url}/api/reports/export?format=csv&classIds=${s.classId}`, {
      headers: await gatewayHeaders('analytics', s.teacher),
    });
    expect(exported.status).toBe(200);
    const entries = await eventually(audited, (e) => e.length === 2);
    expect(entries[1]).toMatchObject({ resource: 'GET /api/reports/export', action: 'export', targetIds: [s.classId] });
  });

  it('when a teacher exports a student’s standards, then the audit entry is an export naming the student', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const audited = async () => auditEntriesBy(s.teacher.userId);
    const student = s.students[0]!.id;
    const exported = await fetch(`${h.url}/api/mastery/students/${student}/export`, {
      headers: await gatewayHeaders('analytics', s.teacher),
    });
    expect(exported.status).toBe(200);
    const [entry] = await eventually(audited, (e) => e.length === 1);
    expect(entry).toMatchObject({
      resource: 'GET /api/mastery/students/{studentId}/export',
      action: 'export',
      targetIds: [student],
    });
  });

  it('when a district is deleted, then none of its rows remain and it is confirmed', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const requestId = randomUUID();
    await h.bus.publish([
      event(
        TenantDeletedSchema,
        { tenantId: s.tenantId, requestId, userIds: [s.teacher.userId, ...s.students.map((x) => x.id)] },
        s.tenantId,
        s.tenantId,
      ),
    ]);
    await eventually(
      async () =>
        answersOf('checkpoint.privacy.v1.SubjectDataErased', (m) =>
          fromBinary(SubjectDataErasedSchema, m.value),
        ).filter((a) => a.requestId === requestId),
      (a) => a.length === 1,
    );
    for (const id of [s.tenantId, s.classId, s.teacher.userId, ...s.students.map((x) => x.id)])
      expect(
        await eventually(
          () => whereFound(id),
          (hits) => hits.length === 0,
        ),
        id,
      ).toEqual([]);
  });
});
