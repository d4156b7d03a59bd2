// The Free Trial limits (up to 3 classes, 50 students total) for teachers of an
// individual tenant, or not known yet; district and school teachers have none. A refused call
// writes nothing (no row, no event).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  deliverUserEvent,
  registerDistrictTeacher,
  startClassService,
  VALID_CLASS,
  type Actor,
  type Harness,
} from './helpers.ts';

const CLASS_LIMIT = 'Free Trial limit reached: up to 3 classes. Upgrade your plan to add more.';
const STUDENT_LIMIT =
  "Free Trial limit reached: this class's teacher can have up to 50 students in total. Ask your teacher to upgrade their plan.";

let h: Harness;
beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

async function individualTeacher(): Promise<Actor> {
  const teacher = actor('teacher');
  await deliverUserEvent(h, 'registered', {
    ...teacher,
    firstName: 'Indie',
    lastName: 'Vidual',
    tenantKind: 'individual',
  });
  return teacher;
}

async function createClass(who: Actor, name = 'Class') {
  const res = await call(h, who, 'POST', '/api/classes', { ...VALID_CLASS, name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; joinCode: string };
}

async function countOf(sql: string, params: unknown[]): Promise<number> {
  return (await h.sql.query<{ n: number }>(sql, params)).rows[0]!.n;
}

const classesOf = (teacher: Actor) =>
  countOf('select count(*)::int as n from classes where teacher_id = $1', [teacher.userId]);
const classEventsOf = (teacher: Actor) =>
  countOf(
    `select count(*)::int as n from outbox where type = 'checkpoint.class.v1.ClassCreated' and key in (select id::text from classes where teacher_id = $1)`,
    [teacher.userId],
  );
const allClassCreatedEvents = () =>
  countOf(`select count(*)::int as n from outbox where type = 'checkpoint.class.v1.ClassCreated'`, []);

describe('Free Trial: up to 3 classes', () => {
  it('when a teacher of an individual tenant has 3 classes (one archived), then a 4th answers 403 with the limit and nothing is created', async () => {
    const teacher = await individualTeacher();
    await createClass(teacher, 'One');
    const two = await createClass(teacher, 'Two');
    await createClass(teacher, 'Three');
    expect((await call(h, teacher, 'PUT', `/api/classes/${two.id}/archive`)).status).toBe(200);
    const eventsBefore = await allClassCreatedEvents();

    const fourth = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: 'Four' });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toEqual({ message: CLASS_LIMIT, code: 'plan_limit' });
    expect(await classesOf(teacher)).toBe(3);
    expect(await allClassCreatedEvents()).toBe(eventsBefore);
    expect((await call(h, teacher, 'GET', '/api/classes')).body).toHaveLength(2);
  });

  it('when one of the 3 classes is deleted, then a new one can be created', async () => {
    const teacher = await individualTeacher();
    const first = await createClass(teacher, 'One');
    await createClass(teacher, 'Two');
    await createClass(teacher, 'Three');
    expect((await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).status).toBe(403);
    expect((await call(h, teacher, 'DELETE', `/api/classes/${first.id}`)).status).toBe(204);
    await createClass(teacher, 'Again');
    expect(await classesOf(teacher)).toBe(3);
  });

  it("when identity's event about the teacher has not arrived yet, then the Free Trial limit applies", async () => {
    const teacher = actor('teacher');
    for (const name of ['One', 'Two', 'Three']) await createClass(teacher, name);
    const res = await call(h, teacher, 'POST', '/api/classes', VALID_CLASS);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(CLASS_LIMIT);
  });

  it('when a teacher of a district or a school creates more than 3 classes, then every one is created', async () => {
    const districtTeacher = actor('teacher');
    await registerDistrictTeacher(h, districtTeacher);
    const schoolTeacher = actor('teacher');
    await deliverUserEvent(h, 'registered', {
      ...schoolTeacher,
      firstName: 'Sch',
      lastName: 'Ool',
      tenantKind: 'school',
    });
    for (const teacher of [districtTeacher, schoolTeacher]) {
      for (let i = 1; i <= 5; i++) await createClass(teacher, `Class ${i}`);
      expect(await classesOf(teacher)).toBe(5);
      expect(await classEventsOf(teacher)).toBe(5);
    }
  });

  it("when the teacher's tenant becomes a district, then the limit is lifted; an event without the kind keeps the known kind", async () => {
    const teacher = await individualTeacher();
    for (const name of ['One', 'Two', 'Three']) await createClass(teacher, name);
    expect((await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).status).toBe(403);
    await deliverUserEvent(h, 'updated', {
      ...teacher,
      firstName: 'Indie',
      lastName: 'Vidual',
      tenantKind: 'district',
    });
    await createClass(teacher, 'Four');
    // An event from a publisher that does not send the kind yet: the district stays.
    await deliverUserEvent(h, 'updated', { ...teacher, firstName: 'Indie', lastName: 'Renamed' });
    await createClass(teacher, 'Five');
    const { rows } = await h.sql.query('select tenant_kind, last_name from people where user_id = $1', [
      teacher.userId,
    ]);
    expect(rows).toEqual([{ tenant_kind: 'district', last_name: 'Renamed' }]);
  });

  it('when a Free Trial teacher sends 6 creations at once, then exactly 3 classes are created', async () => {
    const teacher = await individualTeacher();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: `C${i}` })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403, 403]);
    expect(await classesOf(teacher)).toBe(3);
    expect(await classEventsOf(teacher)).toBe(3);
  });
});

describe('Free Trial: 50 students in total', () => {
  /** A Free Trial teacher with two classes, whose first class holds `count` students. */
  async function teacherWithStudents(count: number) {
    const teacher = await individualTeacher();
    const first = await createClass(teacher, 'First');
    const second = await createClass(teacher, 'Second');
    const students: Actor[] = [];
    for (let i = 0; i < count; i++) {
      const s = actor('student', teacher.tenantId);
      expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: first.joinCode })).status).toBe(200);
      students.push(s);
    }
    return { teacher, first, second, students };
  }

  const membershipsOf = (classId: string) =>
    countOf('select count(*)::int as n from memberships where class_id = $1', [classId]);
  const enrolledEventsOf = (classId: string) =>
    countOf(`select count(*)::int as n from outbox where type = 'checkpoint.class.v1.StudentEnrolled' and key = $1`, [
      classId,
    ]);

  it("when the teacher's classes hold 50 students, then a 51st is refused by code and by join-direct, and nothing is written", async () => {
    const { first, second, students } = await teacherWithStudents(50);
    const newcomer = actor('student', students[0]!.tenantId);
    const eventsBefore = await enrolledEventsOf(first.id);

    const byCode = await call(h, newcomer, 'POST', '/api/classes/join', { joinCode: second.joinCode });
    expect(byCode.status).toBe(403);
    expect(byCode.body).toEqual({ message: STUDENT_LIMIT, code: 'plan_limit' });
    const direct = await call(h, newcomer, 'POST', `/api/classes/${first.id}/join-direct`);
    expect(direct.status).toBe(403);
    expect(direct.body.message).toBe(STUDENT_LIMIT);

    expect(await membershipsOf(first.id)).toBe(50);
    expect(await membershipsOf(second.id)).toBe(0);
    expect(await enrolledEventsOf(first.id)).toBe(eventsBefore);
    expect(await enrolledEventsOf(second.id)).toBe(0);
    expect((await call(h, newcomer, 'GET', '/api/student/classes')).body).toEqual([]);
  });

  it("when a student already counted joins the teacher's other class, then they are in; one already enrolled still gets 409", async () => {
    const { first, second, students } = await teacherWithStudents(50);
    const counted = students[7]!;
    const join = await call(h, counted, 'POST', '/api/classes/join', { joinCode: second.joinCode });
    expect(join.status).toBe(200);
    expect(join.body).toEqual({ className: 'Second', classId: second.id });
    const again = await call(h, counted, 'POST', `/api/classes/${first.id}/join-direct`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Already enrolled');
  });

  it('when a student is removed, then their place is free for another', async () => {
    const { teacher, first, students } = await teacherWithStudents(50);
    const newcomer = actor('student', teacher.tenantId);
    expect((await call(h, newcomer, 'POST', '/api/classes/join', { joinCode: first.joinCode })).status).toBe(403);
    const gone = students[0]!;
    expect((await call(h, teacher, 'DELETE', `/api/classes/${first.id}/students/${gone.userId}`)).status).toBe(204);
    expect((await call(h, newcomer, 'POST', '/api/classes/join', { joinCode: first.joinCode })).status).toBe(200);
    expect(await membershipsOf(first.id)).toBe(50);
  });

  it('when 5 students join at once with 2 places left, then exactly 2 get in', async () => {
    const { teacher, second } = await teacherWithStudents(48);
    const newcomers = Array.from({ length: 5 }, () => actor('student', teacher.tenantId));
    const replies = await Promise.all(
      newcomers.map((s) => call(h, s, 'POST', '/api/classes/join', { joinCode: second.joinCode })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 403, 403, 403]);
    expect(await membershipsOf(second.id)).toBe(2);
    expect(await enrolledEventsOf(second.id)).toBe(2);
  });

  it("when a district teacher's class has more than 50 students, then more still join", async () => {
    const teacher = actor('teacher');
    await registerDistrictTeacher(h, teacher);
    const cls = await createClass(teacher, 'Big');
    for (let i = 0; i < 52; i++) {
      const s = actor('student', randomUUID());
      expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
    }
    expect(await membershipsOf(cls.id)).toBe(52);
  });
});
