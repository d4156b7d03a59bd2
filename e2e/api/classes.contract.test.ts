// Class calls through the gateway (with restore and remove-student), for each role and a
// non-owner: 401 signed out, 403 wrong role, 404 not yours (another teacher of the same district,
// a teacher of another tenant), and a teacher's class journeys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  eventually,
  joinDistrict,
  signUp,
  startBackend,
  type Backend,
  type ClassJson,
  type MemberJson,
} from './helpers.ts';

// Identity's demo seed makes the Demo District owning this domain: sign-ups with it join it by the
// mailed link (joinDistrict).
const DISTRICT = 'demo.checkpoint.school';
const JOIN_LIMIT = 12;

let backend: Backend;
let anon: Client;
let owner: Client; // district teacher who owns the classes
let colleague: Client; // another teacher of the same district
let outsider: Client; // a teacher with their own tenant
let student: Client; // district student
let outsiderStudent: Client; // student with their own tenant
let cls: ClassJson; // owner's class

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', RATE_LIMIT_JOIN_PER_MINUTE: String(JOIN_LIMIT) });
  anon = new Client(backend.url);
  [owner, colleague, outsider, student, outsiderStudent] = await Promise.all([
    joinDistrict(backend, 'teacher', { domain: DISTRICT, firstName: 'Olive', lastName: 'Owner' }),
    joinDistrict(backend, 'teacher', { domain: DISTRICT }),
    signUp(backend.url, 'teacher'),
    joinDistrict(backend, 'student', { domain: DISTRICT, firstName: 'Stu', lastName: 'Dent' }),
    signUp(backend.url, 'student'),
  ]);
  expect(colleague.user!.tenantId).toBe(owner.user!.tenantId);
  expect(student.user!.tenantId).toBe(owner.user!.tenantId);
  expect(outsider.user!.tenantId).not.toBe(owner.user!.tenantId);
  const created = await owner.post('/api/classes', { name: 'Biology', subject: 'Science', period: '4' });
  expect(created.status).toBe(201);
  cls = created.body;
}, 120_000);

afterAll(async () => {
  await backend?.stop();
});

const UUID_OF_NOTHING = '00000000-0000-4000-8000-000000000000';

describe('teacher calls: who may call them', () => {
  const calls = (): [string, string, unknown?][] => [
    ['GET', '/api/classes'],
    ['GET', '/api/classes/archived'],
    ['POST', '/api/classes', { name: 'X', subject: 'Math', period: '1' }],
    ['GET', `/api/classes/${cls.id}`],
    ['PUT', `/api/classes/${cls.id}`, { name: 'Hacked', subject: 'Math', period: '1' }],
    ['DELETE', `/api/classes/${cls.id}`],
    ['GET', `/api/classes/${cls.id}/students`],
    ['PUT', `/api/classes/${cls.id}/archive`],
    ['PUT', `/api/classes/${cls.id}/restore`],
    ['DELETE', `/api/classes/${cls.id}/students/${student.user!.id}`],
  ];

  it('when signed out, then every teacher call answers 401', async () => {
    for (const [method, path, body] of calls()) {
      expect((await anon.request(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('when a student calls, then every teacher call answers 403', async () => {
    for (const [method, path, body] of calls()) {
      expect((await student.request(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
  });

  it("when another teacher (same district or another tenant) calls with the class's id, then 404 and nothing leaks or changes", async () => {
    for (const other of [colleague, outsider]) {
      for (const [method, path, body] of calls().filter(([, p]) => p.includes(cls.id))) {
        const res = await other.request(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain(cls.joinCode);
      }
      const list = await other.get('/api/classes');
      expect(list.body.map((c: ClassJson) => c.id)).not.toContain(cls.id);
      expect((await other.get('/api/classes/archived')).body.map((c: ClassJson) => c.id)).not.toContain(cls.id);
    }
    const mine = await owner.get(`/api/classes/${cls.id}`);
    expect(mine.body).toMatchObject({ name: 'Biology', archived: false });
  });

  it('when an id is unknown or malformed, then 404', async () => {
    expect((await owner.get(`/api/classes/${UUID_OF_NOTHING}`)).status).toBe(404);
    expect((await owner.get('/api/classes/not-a-uuid')).status).toBe(404);
    expect((await owner.put('/api/classes/nope/archive')).status).toBe(404);
  });
});

describe('student calls: who may call them', () => {
  const calls = (): [string, string, unknown?][] => [
    ['POST', '/api/classes/join', { joinCode: cls.joinCode }],
    ['POST', `/api/classes/${cls.id}/join-direct`],
    ['GET', '/api/student/classes'],
    ['GET', '/api/all-classes'],
  ];

  it('when signed out, then 401', async () => {
    for (const [method, path, body] of calls()) {
      expect((await anon.request(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('when a teacher calls, then 403', async () => {
    for (const [method, path, body] of calls()) {
      expect((await owner.request(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
  });

  it("when a student of another tenant joins directly, then 404 (join-direct is for the student's own district)", async () => {
    const res = await outsiderStudent.post(`/api/classes/${cls.id}/join-direct`);
    expect(res.status).toBe(404);
    expect((await outsiderStudent.get('/api/all-classes')).body).toEqual([]);
  });
});

describe('class journeys', () => {
  it('when a teacher creates a class, then it has every field of a class, a valid code and counts of 0', async () => {
    expect(cls).toEqual({
      id: expect.any(String),
      name: 'Biology',
      subject: 'Science',
      period: '4',
      joinCode: expect.stringMatching(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{6,8}$/),
      createdAt: expect.any(String),
      teacherId: owner.user!.id,
      teacherName: expect.toSatisfy((v: unknown) => v === null || v === 'Olive Owner'),
      studentCount: 0,
      assessmentCount: 0,
      belowStandard: 0,
      atStandard: 0,
      aboveStandard: 0,
      archived: false,
      coTeaching: false,
    });
    const named = await eventually(
      () => owner.get(`/api/classes/${cls.id}`),
      (r) => r.body.teacherName === 'Olive Owner',
    );
    expect(named.body.teacherName).toBe('Olive Owner');
  });

  it('when a class form misses fields, then the validation messages of the form', async () => {
    const res = await owner.post('/api/classes', { name: '', subject: '' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({ name: 'Class name is required', subject: 'Subject is required' });
    const noPeriod = await owner.post('/api/classes', { name: 'Art', subject: 'Art' });
    expect(noPeriod.status).toBe(201);
    expect(noPeriod.body.period).toBeNull();
    const put = await owner.put(`/api/classes/${noPeriod.body.id}`, { name: 'Art', subject: 'Art', period: '' });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe('Period is required');
    expect((await owner.del(`/api/classes/${noPeriod.body.id}`)).status).toBe(204);
  });

  it('when a student joins with the code in lower case, then they see the class, and a second join says Already enrolled', async () => {
    const s = await signUp(backend.url, 'student', { firstName: 'Lou', lastName: 'Case' });
    const join = await s.post('/api/classes/join', { joinCode: cls.joinCode.toLowerCase() });
    expect(join.status).toBe(200);
    expect(join.body).toEqual({ className: 'Biology', classId: cls.id });
    const again = await s.post('/api/classes/join', { joinCode: cls.joinCode });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Already enrolled');
    const mine = await s.get('/api/student/classes');
    expect(mine.body).toEqual([
      {
        id: expect.any(String),
        classId: cls.id,
        joinedAt: expect.any(String),
        class: { name: 'Biology', period: '4', subject: 'Science', teacherName: 'Olive Owner' },
      },
    ]);
    const roster = await eventually(
      () => owner.get(`/api/classes/${cls.id}/students`),
      (r) => r.body.some((m: MemberJson) => m.student.firstName === 'Lou'),
    );
    expect(roster.body.find((m: MemberJson) => m.student.id === s.user!.id)).toEqual({
      id: mine.body[0].id,
      joinedAt: expect.any(String),
      student: { id: s.user!.id, firstName: 'Lou', lastName: 'Case', email: s.user!.email, profileImageUrl: null },
    });
    // Another student does not see it.
    expect((await outsiderStudent.get('/api/student/classes')).body).toEqual([]);
  });

  it('when the code is unknown, then 404 with "not found"', async () => {
    const res = await outsiderStudent.post('/api/classes/join', { joinCode: 'QQQQQQQ' });
    expect(res.status).toBe(404);
    expect(res.body.message.toLowerCase()).toContain('not found');
  });

  it('when a district student browses, then only active classes of the district not yet joined are listed; joining hides it', async () => {
    const s = await joinDistrict(backend, 'student', { domain: DISTRICT });
    const extra = (await colleague.post('/api/classes', { name: 'Chemistry', subject: 'Science', period: '5' })).body;
    const archived = (await colleague.post('/api/classes', { name: 'Old', subject: 'Science', period: '6' })).body;
    await colleague.put(`/api/classes/${archived.id}/archive`);
    const foreign = (await outsider.post('/api/classes', { name: 'Elsewhere', subject: 'Math', period: '1' })).body;

    const before = (await s.get('/api/all-classes')).body;
    const ids = before.map((c: ClassJson) => c.id);
    expect(ids).toEqual(expect.arrayContaining([cls.id, extra.id]));
    expect(ids).not.toContain(archived.id);
    expect(ids).not.toContain(foreign.id);
    expect(before.find((c: ClassJson) => c.id === cls.id)).toEqual({
      id: cls.id,
      name: 'Biology',
      period: '4',
      subject: 'Science',
      teacherId: owner.user!.id,
      teacherName: 'Olive Owner',
      studentCount: expect.any(Number),
    });
    const join = await s.post(`/api/classes/${extra.id}/join-direct`);
    expect(join.body).toEqual({ className: 'Chemistry', classId: extra.id });
    expect((await s.post(`/api/classes/${extra.id}/join-direct`)).body.message).toContain('Already enrolled');
    const after = (await s.get('/api/all-classes')).body.map((c: ClassJson) => c.id);
    expect(after).not.toContain(extra.id);
    expect(after).toContain(cls.id);
    expect((await s.post(`/api/classes/${archived.id}/join-direct`)).status).toBe(404);
    expect((await s.post(`/api/classes/${foreign.id}/join-direct`)).status).toBe(404);
  });

  it('when a teacher archives, restores and deletes a class, then lists, joins and enrolments follow', async () => {
    const c = (await owner.post('/api/classes', { name: 'History', subject: 'History', period: '2' })).body;
    const s = await joinDistrict(backend, 'student', { domain: DISTRICT });
    await s.post('/api/classes/join', { joinCode: c.joinCode });

    const archived = await owner.put(`/api/classes/${c.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.archived).toBe(true);
    expect((await owner.get('/api/classes')).body.map((x: ClassJson) => x.id)).not.toContain(c.id);
    expect((await owner.get('/api/classes/archived')).body.map((x: ClassJson) => x.id)).toContain(c.id);
    const late = await joinDistrict(backend, 'student', { domain: DISTRICT });
    expect((await late.post('/api/classes/join', { joinCode: c.joinCode })).status).toBe(404);
    expect((await late.get('/api/all-classes')).body.map((x: ClassJson) => x.id)).not.toContain(c.id);

    const restored = await owner.put(`/api/classes/${c.id}/restore`);
    expect(restored.body).toMatchObject({ archived: false, joinCode: c.joinCode, studentCount: 1 });
    expect((await owner.get('/api/classes')).body.map((x: ClassJson) => x.id)).toContain(c.id);
    expect((await late.post('/api/classes/join', { joinCode: c.joinCode })).status).toBe(200);

    const updated = await owner.put(`/api/classes/${c.id}`, { name: 'World History', subject: 'History', period: '3' });
    expect(updated.body).toMatchObject({ name: 'World History', period: '3' });

    expect((await owner.del(`/api/classes/${c.id}/students/${late.user!.id}`)).status).toBe(204);
    expect((await late.get('/api/student/classes')).body).toEqual([]);
    expect((await owner.get(`/api/classes/${c.id}/students`)).body.map((m: MemberJson) => m.student.id)).toEqual([
      s.user!.id,
    ]);

    expect((await owner.del(`/api/classes/${c.id}`)).status).toBe(204);
    expect((await owner.get(`/api/classes/${c.id}`)).status).toBe(404);
    expect((await s.get('/api/student/classes')).body).toEqual([]);
    expect((await owner.del(`/api/classes/${c.id}`)).status).toBe(404);
  });

  it('when a student keeps trying codes, then join answers 429 with Retry-After', async () => {
    const s = await signUp(backend.url, 'student');
    for (let i = 0; i < JOIN_LIMIT; i++) {
      expect((await s.post('/api/classes/join', { joinCode: 'WRNG222' })).status).toBe(404);
    }
    const limited = await s.post('/api/classes/join', { joinCode: cls.joinCode });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await s.post(`/api/classes/${cls.id}/join-direct`)).status).toBe(429);
  });
});
