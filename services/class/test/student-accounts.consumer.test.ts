// identity's StudentAccountCreated (a teacher made a student account without email for a class,
// docs/adr/015-students-without-email.md) → the student is enrolled, through the outbox; nothing
// for an archived class, another tenant's or one the creator does not teach; a redelivery writes
// nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeaders, create, StudentAccountCreatedSchema, toBinary } from '@checkpoint/events';
import {
  actor,
  call,
  outboxFor,
  registerDistrictTeacher,
  startClassService,
  VALID_CLASS,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClassService();
});
afterAll(async () => {
  await h?.stop();
});

async function deliver(m: { userId: string; tenantId: string; classId: string; createdBy: string }, id = randomUUID()) {
  await h.bus.publish([
    {
      topic: 'checkpoint.identity.v1',
      key: m.userId,
      value: toBinary(StudentAccountCreatedSchema, create(StudentAccountCreatedSchema, m)),
      headers: buildHeaders({
        id,
        type: StudentAccountCreatedSchema.typeName,
        source: 'identity',
        time: new Date(),
        tenantId: m.tenantId,
      }),
    },
  ]);
  return id;
}

async function members(classId: string): Promise<string[]> {
  const { rows } = await h.sql.query('select student_id from memberships where class_id = $1', [classId]);
  return rows.map((r) => r.student_id as string);
}

async function classOf(teacher: Actor) {
  await registerDistrictTeacher(h, teacher);
  const res = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: `2nd grade ${randomUUID()}` });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('student accounts made by a teacher for a class', () => {
  it('enrols the student once, through the outbox, and the student sees the class', async () => {
    const teacher = actor('teacher');
    const classId = await classOf(teacher);
    const student = actor('student', teacher.tenantId);
    const m = { userId: student.userId, tenantId: teacher.tenantId, classId, createdBy: teacher.userId };
    const id = await deliver(m);
    await deliver(m, id);
    await deliver(m);
    expect(await members(classId)).toEqual([student.userId]);
    const enrolled = (await outboxFor(h, classId)).filter((e) => e.type === 'checkpoint.class.v1.StudentEnrolled');
    expect(enrolled).toHaveLength(1);
    const seen = await call(h, student, 'GET', '/api/student/classes');
    expect(seen.body.map((e: { classId: string }) => e.classId)).toContain(classId);
  });

  it('enrols nobody in a class the creator does not teach, of another tenant, or archived', async () => {
    const teacher = actor('teacher');
    const classId = await classOf(teacher);
    const student = actor('student', teacher.tenantId);
    await deliver({ userId: student.userId, tenantId: teacher.tenantId, classId, createdBy: randomUUID() });
    await deliver({ userId: student.userId, tenantId: randomUUID(), classId, createdBy: teacher.userId });
    expect((await call(h, teacher, 'PUT', `/api/classes/${classId}/archive`)).status).toBeLessThan(300);
    await deliver({ userId: student.userId, tenantId: teacher.tenantId, classId, createdBy: teacher.userId });
    expect(await members(classId)).toEqual([]);
  });
});
