// The class service against real Postgres: ownership, join rules, and the events each change
// writes to the outbox in its own transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  deliverUserEvent,
  outboxFor,
  registerDistrictTeacher,
  startClassService,
  VALID_CLASS,
  type Harness,
} from './helpers.ts';
import { isValidJoinCode } from '../src/domain/join-code.ts';

let h: Harness;
const tenant = crypto.randomUUID();
const teacher = actor('teacher', tenant);
const otherTeacher = actor('teacher', tenant);
const student = actor('student', tenant);

beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  // A district's teacher (no Free Trial limits): these tests create many classes.
  await registerDistrictTeacher(h, teacher);
});
afterAll(async () => {
  await h?.stop();
});

async function createClass(who = teacher, body: object = VALID_CLASS) {
  const res = await call(h, who, 'POST', '/api/classes', body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('creating and changing classes', () => {
  it('when a teacher creates a class, then it has a valid join code, zero counts and a ClassCreated outbox row', async () => {
    const cls = await createClass();
    expect(cls).toMatchObject({
      name: 'Algebra I',
      subject: 'Math',
      period: '2',
      teacherId: teacher.userId,
      studentCount: 0,
      assessmentCount: 0,
      belowStandard: 0,
      atStandard: 0,
      aboveStandard: 0,
      archived: false,
    });
    expect(isValidJoinCode(cls.joinCode)).toBe(true);
    const events = await outboxFor(h, cls.id);
    expect(events.map((e) => e.type)).toEqual(['checkpoint.class.v1.ClassCreated']);
    expect(events[0]!.tenantId).toBe(tenant);
    expect(events[0]!.message).toMatchObject({
      classId: cls.id,
      tenantId: tenant,
      teacherId: teacher.userId,
      name: 'Algebra I',
      joinCode: cls.joinCode,
    });
  });

  it('when the period is left empty on create, then the class has no period', async () => {
    const cls = await createClass(teacher, { name: 'Art', subject: 'Art', period: '' });
    expect(cls.period).toBeNull();
  });

  it('when fields are missing, then the validation messages of the form come back as 400', async () => {
    const res = await call(h, teacher, 'POST', '/api/classes', { name: ' ', subject: '' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({ name: 'Class name is required', subject: 'Subject is required' });
    const put = await call(h, teacher, 'PUT', `/api/classes/${(await createClass()).id}`, { name: 'X', subject: 'Y' });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe('Period is required');
    const long = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: 'x'.repeat(121) });
    expect(long.status).toBe(400);
    // Only invisible characters: missing, too.
    const invisible = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: '\u200b\u200b\u202e' });
    expect(invisible.status).toBe(400);
    expect(invisible.body.fields).toEqual({ name: 'Class name is required' });
    // A direction override is dropped, not stored.
    const cleaned = await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, name: 'Art\u202e 7' });
    expect(cleaned.status).toBe(201);
    expect(cleaned.body.name).toBe('Art 7');
  });

  it('when a class is updated, archived and restored, then each writes its event in order', async () => {
    const cls = await createClass();
    const upd = await call(h, teacher, 'PUT', `/api/classes/${cls.id}`, {
      name: 'Geometry',
      subject: 'Math',
      period: '3',
    });
    expect(upd.body).toMatchObject({ name: 'Geometry', period: '3', joinCode: cls.joinCode });
    expect((await call(h, teacher, 'PUT', `/api/classes/${cls.id}/archive`)).body.archived).toBe(true);
    // Archiving twice changes nothing and emits nothing.
    expect((await call(h, teacher, 'PUT', `/api/classes/${cls.id}/archive`)).status).toBe(200);
    expect((await call(h, teacher, 'GET', '/api/classes/archived')).body.map((c: { id: string }) => c.id)).toContain(
      cls.id,
    );
    expect((await call(h, teacher, 'GET', '/api/classes')).body.map((c: { id: string }) => c.id)).not.toContain(cls.id);
    expect((await call(h, teacher, 'PUT', `/api/classes/${cls.id}/restore`)).body.archived).toBe(false);
    const types = (await outboxFor(h, cls.id)).map((e) => e.type.split('.').pop());
    expect(types).toEqual(['ClassCreated', 'ClassUpdated', 'ClassArchived', 'ClassRestored']);
    const updated = (await outboxFor(h, cls.id))[1]!.message;
    expect(updated).toMatchObject({ name: 'Geometry', period: '3', joinCode: cls.joinCode });
  });

  it('when another teacher of the same tenant touches a class, then every call answers 404 and nothing changes', async () => {
    const cls = await createClass();
    for (const [method, path] of [
      ['GET', `/api/classes/${cls.id}`],
      ['PUT', `/api/classes/${cls.id}`],
      ['DELETE', `/api/classes/${cls.id}`],
      ['GET', `/api/classes/${cls.id}/students`],
      ['PUT', `/api/classes/${cls.id}/archive`],
      ['PUT', `/api/classes/${cls.id}/restore`],
      ['DELETE', `/api/classes/${cls.id}/students/${student.userId}`],
    ] as const) {
      const res = await call(h, otherTeacher, method, path, method === 'PUT' ? VALID_CLASS : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}`)).body.name).toBe('Algebra I');
    expect((await outboxFor(h, cls.id)).length).toBe(1);
  });

  it('when an id is not a UUID, then the answer is 404, not 400 or 500', async () => {
    expect((await call(h, teacher, 'GET', '/api/classes/not-a-uuid')).status).toBe(404);
    expect((await call(h, teacher, 'DELETE', '/api/classes/123/students/abc')).status).toBe(404);
    expect((await call(h, student, 'POST', '/api/classes/xyz/join-direct')).status).toBe(404);
  });
});

describe('joining and leaving', () => {
  it('when a student joins with the code in lower case, then they are enrolled and StudentEnrolled is written', async () => {
    const cls = await createClass();
    const s = actor('student', crypto.randomUUID());
    const res = await call(h, s, 'POST', '/api/classes/join', { joinCode: `  ${cls.joinCode.toLowerCase()} ` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ className: 'Algebra I', classId: cls.id });
    const again = await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Already enrolled');
    const enrolled = (await outboxFor(h, cls.id)).filter((e) => e.type.endsWith('StudentEnrolled'));
    expect(enrolled).toHaveLength(1);
    expect(enrolled[0]!.message).toMatchObject({ classId: cls.id, studentId: s.userId, tenantId: tenant });
    const mine = await call(h, s, 'GET', '/api/student/classes');
    expect(mine.body).toEqual([
      {
        id: enrolled[0]!.message.membershipId,
        classId: cls.id,
        joinedAt: expect.any(String),
        class: { name: 'Algebra I', period: '2', subject: 'Math', teacherName: 'Dee Strict' },
      },
    ]);
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}`)).body.studentCount).toBe(1);
  });

  it('when the code is unknown or the class archived, then 404 Class not found', async () => {
    const s = actor('student');
    const unknown = await call(h, s, 'POST', '/api/classes/join', { joinCode: 'ZZZZZZZ' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Class not found');
    const cls = await createClass();
    await call(h, teacher, 'PUT', `/api/classes/${cls.id}/archive`);
    expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(404);
  });

  it('when a teacher removes a student, then the membership is gone and StudentRemoved is written', async () => {
    const cls = await createClass();
    const s = actor('student', tenant);
    await deliverUserEvent(h, 'registered', {
      ...s,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
    });
    await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    const members = await call(h, teacher, 'GET', `/api/classes/${cls.id}/students`);
    expect(members.body).toEqual([
      {
        id: expect.any(String),
        joinedAt: expect.any(String),
        student: {
          id: s.userId,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.test',
          profileImageUrl: null,
        },
      },
    ]);
    expect((await call(h, teacher, 'DELETE', `/api/classes/${cls.id}/students/${s.userId}`)).status).toBe(204);
    expect((await call(h, teacher, 'DELETE', `/api/classes/${cls.id}/students/${s.userId}`)).status).toBe(404);
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}/students`)).body).toEqual([]);
    const removed = (await outboxFor(h, cls.id)).filter((e) => e.type.endsWith('StudentRemoved'));
    expect(removed.map((e) => e.message.studentId)).toEqual([s.userId]);
  });

  it('when a student of another tenant joins by code, then the teacher sees their name but not their e-mail', async () => {
    const cls = await createClass();
    const outsider = actor('student', crypto.randomUUID());
    await deliverUserEvent(h, 'registered', {
      ...outsider,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@other-district.test',
      tenantKind: 'district',
    });
    expect((await call(h, outsider, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
    const members = await call(h, teacher, 'GET', `/api/classes/${cls.id}/students`);
    expect(members.status).toBe(200);
    expect(members.body).toEqual([
      {
        id: expect.any(String),
        joinedAt: expect.any(String),
        student: { id: outsider.userId, firstName: 'Grace', lastName: 'Hopper', email: null, profileImageUrl: null },
      },
    ]);
    expect(JSON.stringify(members.body)).not.toContain('grace@other-district.test');
  });

  it('when a class is deleted, then its memberships go with it and ClassDeleted is written', async () => {
    const cls = await createClass();
    const s = actor('student', tenant);
    await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    expect((await call(h, teacher, 'DELETE', `/api/classes/${cls.id}`)).status).toBe(204);
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}`)).status).toBe(404);
    const { rows } = await h.sql.query('select count(*)::int as n from memberships where class_id = $1', [cls.id]);
    expect(rows[0].n).toBe(0);
    expect((await outboxFor(h, cls.id)).map((e) => e.type).pop()).toBe('checkpoint.class.v1.ClassDeleted');
    expect((await call(h, s, 'GET', '/api/student/classes')).body).toEqual([]);
  });

  it('when a student browses, then only active unjoined classes of their own tenant are listed, and join-direct follows the same rule', async () => {
    const t = crypto.randomUUID();
    const tch = actor('teacher', t);
    const s = actor('student', t);
    const a = await createClass(tch, { name: 'A class', subject: 'Math', period: '1' });
    const b = await createClass(tch, { name: 'B class', subject: 'Art', period: '2' });
    const archived = await createClass(tch, { name: 'C class', subject: 'PE', period: '3' });
    await call(h, tch, 'PUT', `/api/classes/${archived.id}/archive`);
    const foreign = await createClass(actor('teacher'), { name: 'Foreign', subject: 'Math', period: '1' });
    await deliverUserEvent(h, 'registered', { ...tch, firstName: 'Grace', lastName: 'Hopper' });

    let list = (await call(h, s, 'GET', '/api/all-classes')).body;
    expect(list).toEqual([
      {
        id: a.id,
        name: 'A class',
        period: '1',
        subject: 'Math',
        teacherId: tch.userId,
        teacherName: 'Grace Hopper',
        studentCount: 0,
      },
      {
        id: b.id,
        name: 'B class',
        period: '2',
        subject: 'Art',
        teacherId: tch.userId,
        teacherName: 'Grace Hopper',
        studentCount: 0,
      },
    ]);
    const joined = await call(h, s, 'POST', `/api/classes/${a.id}/join-direct`);
    expect(joined.body).toEqual({ className: 'A class', classId: a.id });
    expect((await call(h, s, 'POST', `/api/classes/${a.id}/join-direct`)).status).toBe(409);
    list = (await call(h, s, 'GET', '/api/all-classes')).body;
    expect(list.map((c: { id: string }) => c.id)).toEqual([b.id]);
    expect((await call(h, s, 'POST', `/api/classes/${foreign.id}/join-direct`)).status).toBe(404);
    expect((await call(h, s, 'POST', `/api/classes/${archived.id}/join-direct`)).status).toBe(404);
    expect((await call(h, actor('student'), 'GET', '/api/all-classes')).body).toEqual([]);
  });
});

describe('roles', () => {
  it('when signed out, then 401; when the wrong role, then 403', async () => {
    expect((await call(h, undefined, 'GET', '/api/classes')).status).toBe(401);
    expect((await call(h, student, 'GET', '/api/classes')).status).toBe(403);
    expect((await call(h, student, 'POST', '/api/classes', VALID_CLASS)).status).toBe(403);
    expect((await call(h, teacher, 'POST', '/api/classes/join', { joinCode: 'ABCDEFG' })).status).toBe(403);
    expect((await call(h, teacher, 'GET', '/api/all-classes')).status).toBe(403);
    expect((await call(h, actor('admin'), 'GET', '/api/classes')).status).toBe(200);
  });
});

describe('OpenAPI document', () => {
  it('when the document is fetched, then every class call is described with its roles', async () => {
    // The document startService builds and serves at /openapi.json (the gateway merges them).
    const paths = (h.service.openapi.paths ?? {}) as Record<string, Record<string, { description?: string }>>;
    const calls = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(paths['/api/classes']!.get!.description).toBe('Access: teacher, admin.');
    expect(paths['/api/all-classes']!.get!.description).toBe('Access: student.');
    expect(calls.sort()).toEqual(
      [
        'GET /api/classes',
        'POST /api/classes',
        'GET /api/classes/archived',
        'GET /api/classes/{id}',
        'PUT /api/classes/{id}',
        'DELETE /api/classes/{id}',
        'GET /api/classes/{id}/students',
        'PUT /api/classes/{id}/archive',
        'PUT /api/classes/{id}/restore',
        'DELETE /api/classes/{id}/students/{studentId}',
        'GET /api/classes/{id}/teachers',
        'POST /api/classes/{id}/teachers',
        'DELETE /api/classes/{id}/teachers/{teacherId}',
        'POST /api/classes/join',
        'GET /api/classes/join-code',
        'POST /api/classes/{id}/join-direct',
        'GET /api/student/classes',
        'GET /api/all-classes',
      ].sort(),
    );
  });
});
