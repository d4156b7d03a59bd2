// identity's RosterClassSynced → a district class with exactly the roster's students, every change
// through this service's outbox (as a teacher's action), idempotent on redelivery.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeaders, create, RosterClassSyncedSchema, toBinary } from '@checkpoint/events';
import { actor, call, outboxFor, startClassService, type Harness } from './helpers.ts';
import { isValidJoinCode } from '../src/domain/join-code.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClassService();
});
afterAll(async () => {
  await h?.stop();
});

interface Sync {
  tenantId: string;
  sourceId: string;
  title?: string;
  subject?: string;
  period?: string;
  teacherUserIds: string[];
  studentUserIds: string[];
  active?: boolean;
  schoolId?: string;
  schoolName?: string;
  grades?: string[];
}

async function deliverSync(s: Sync, eventId: string = randomUUID()): Promise<string> {
  const message = create(RosterClassSyncedSchema, {
    title: 'Algebra 1',
    subject: 'Math',
    period: '3',
    active: true,
    ...s,
  });
  await h.bus.publish([
    {
      topic: 'checkpoint.identity.v1',
      key: `${s.tenantId}:${s.sourceId}`,
      value: toBinary(RosterClassSyncedSchema, message),
      headers: buildHeaders({
        id: eventId,
        type: RosterClassSyncedSchema.typeName,
        source: 'identity',
        time: new Date(),
        tenantId: s.tenantId,
      }),
    },
  ]);
  return eventId;
}

async function rosterClass(tenantId: string, sourceId: string) {
  const { rows } = await h.sql.query(
    'select id, teacher_id, name, subject, period, join_code, archived_at from classes where tenant_id = $1 and roster_source_id = $2',
    [tenantId, sourceId],
  );
  return rows[0];
}

async function members(classId: string): Promise<string[]> {
  const { rows } = await h.sql.query('select student_id from memberships where class_id = $1 order by student_id', [
    classId,
  ]);
  return rows.map((r) => r.student_id as string);
}

describe('roster class sync consumer', () => {
  it('when a roster class is synced for the first time, then the class is created for its first teacher with a join code and exactly its students, and the students see it', async () => {
    const teacher = actor('teacher');
    const s1 = actor('student', teacher.tenantId);
    const s2 = actor('student', teacher.tenantId);
    await deliverSync({
      tenantId: teacher.tenantId,
      sourceId: 'c1',
      teacherUserIds: [teacher.userId, randomUUID()],
      studentUserIds: [s1.userId, s2.userId],
    });
    const cls = await rosterClass(teacher.tenantId, 'c1');
    expect(cls).toMatchObject({
      teacher_id: teacher.userId,
      name: 'Algebra 1',
      subject: 'Math',
      period: '3',
      archived_at: null,
    });
    expect(isValidJoinCode(cls.join_code)).toBe(true);
    expect(await members(cls.id)).toEqual([s1.userId, s2.userId].sort());
    const events = (await outboxFor(h, cls.id)).map((e) => e.type);
    expect(events).toEqual([
      'checkpoint.class.v1.ClassCreated',
      'checkpoint.class.v1.StudentEnrolled',
      'checkpoint.class.v1.StudentEnrolled',
    ]);
    const seen = await call(h, s1, 'GET', '/api/student/classes');
    expect(seen.body.map((e: { classId: string }) => e.classId)).toContain(cls.id);
  });

  it('when the same sync is delivered again, or sent again unchanged, then nothing is written', async () => {
    const teacher = actor('teacher');
    const s1 = actor('student', teacher.tenantId);
    const sync = {
      tenantId: teacher.tenantId,
      sourceId: 'c2',
      teacherUserIds: [teacher.userId],
      studentUserIds: [s1.userId],
    };
    const id = await deliverSync(sync);
    await deliverSync(sync, id);
    await deliverSync(sync);
    const cls = await rosterClass(teacher.tenantId, 'c2');
    expect(await members(cls.id)).toEqual([s1.userId]);
    expect(await outboxFor(h, cls.id)).toHaveLength(2);
    const { rows } = await h.sql.query('select count(*)::int as n from classes where tenant_id = $1', [
      teacher.tenantId,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('when the roster changes, then the class follows: renamed, a student removed and another enrolled, each through the outbox', async () => {
    const teacher = actor('teacher');
    const [s1, s2, s3] = [1, 2, 3].map(() => actor('student', teacher.tenantId));
    await deliverSync({
      tenantId: teacher.tenantId,
      sourceId: 'c3',
      teacherUserIds: [teacher.userId],
      studentUserIds: [s1!.userId, s2!.userId],
    });
    await deliverSync({
      tenantId: teacher.tenantId,
      sourceId: 'c3',
      title: 'Algebra 1 (Honors)',
      teacherUserIds: [teacher.userId],
      studentUserIds: [s2!.userId, s3!.userId],
    });
    const cls = await rosterClass(teacher.tenantId, 'c3');
    expect(cls.name).toBe('Algebra 1 (Honors)');
    expect(await members(cls.id)).toEqual([s2!.userId, s3!.userId].sort());
    const later = (await outboxFor(h, cls.id)).slice(3);
    expect(later.map((e) => e.type).sort()).toEqual(
      [
        'checkpoint.class.v1.ClassUpdated',
        'checkpoint.class.v1.StudentEnrolled',
        'checkpoint.class.v1.StudentRemoved',
      ].sort(),
    );
    expect(later.find((e) => e.type.endsWith('StudentRemoved'))!.message).toMatchObject({ studentId: s1!.userId });
  });

  it('when a roster class is no longer active, then it is archived, and an inactive class never seen is not created', async () => {
    const teacher = actor('teacher');
    const sync = { tenantId: teacher.tenantId, sourceId: 'c4', teacherUserIds: [teacher.userId], studentUserIds: [] };
    await deliverSync(sync);
    await deliverSync({ ...sync, active: false });
    const cls = await rosterClass(teacher.tenantId, 'c4');
    expect(cls.archived_at).not.toBeNull();
    expect((await outboxFor(h, cls.id)).map((e) => e.type)).toContain('checkpoint.class.v1.ClassArchived');
    await deliverSync({ ...sync, sourceId: 'c5', active: false });
    expect(await rosterClass(teacher.tenantId, 'c5')).toBeUndefined();
  });

  it('when the same source id is used by two districts, then each gets its own class', async () => {
    const t1 = actor('teacher');
    const t2 = actor('teacher');
    await deliverSync({ tenantId: t1.tenantId, sourceId: 'same', teacherUserIds: [t1.userId], studentUserIds: [] });
    await deliverSync({ tenantId: t2.tenantId, sourceId: 'same', teacherUserIds: [t2.userId], studentUserIds: [] });
    expect((await rosterClass(t1.tenantId, 'same')).teacher_id).toBe(t1.userId);
    expect((await rosterClass(t2.tenantId, 'same')).teacher_id).toBe(t2.userId);
  });

  it('when a roster class names its school and grades, then the class keeps them and ClassCreated carries them; when the school changes, then ClassUpdated carries the new one', async () => {
    const teacher = actor('teacher');
    const school = { schoolId: 'org1', schoolName: 'Springfield Middle', grades: ['06', '07'] };
    const sync = {
      tenantId: teacher.tenantId,
      sourceId: 'c-school',
      teacherUserIds: [teacher.userId],
      studentUserIds: [],
    };
    await deliverSync({ ...sync, ...school });
    const { rows } = await h.sql.query(
      'select id, school_id, school_name, grades from classes where tenant_id = $1 and roster_source_id = $2',
      [teacher.tenantId, 'c-school'],
    );
    expect(rows[0]).toMatchObject({ school_id: 'org1', school_name: 'Springfield Middle', grades: ['06', '07'] });
    await deliverSync({ ...sync, ...school });
    await deliverSync({ ...sync, ...school, schoolId: 'org2', schoolName: 'Shelbyville High' });
    const events = await outboxFor(h, rows[0].id);
    expect(events.map((e) => [e.type, e.message.schoolId, e.message.schoolName, e.message.grades])).toEqual([
      ['checkpoint.class.v1.ClassCreated', 'org1', 'Springfield Middle', ['06', '07']],
      ['checkpoint.class.v1.ClassUpdated', 'org2', 'Shelbyville High', ['06', '07']],
    ]);
  });

  it('when a teacher creates a class by hand, then it has no school and no grades', async () => {
    const teacher = actor('teacher');
    const res = await call(h, teacher, 'POST', '/api/classes', { name: 'Own class', subject: 'Science', period: '' });
    expect(res.status).toBe(201);
    const events = await outboxFor(h, res.body.id);
    expect(events[0]!.message).toMatchObject({ schoolId: '', schoolName: '', grades: [] });
  });
});
