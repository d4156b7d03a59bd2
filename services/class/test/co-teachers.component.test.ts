// Co-teachers (issue 30, item 8): the owner adds a teacher of the same school or district by
// email; the co-teacher teaches the class (page, roster, edit) but cannot delete it, add or remove
// others, or remove the owner; the Free Trial limits count the owner's classes only; every change
// is a ClassUpdated carrying co_teacher_ids.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeaders, CoTeacherInvitationRefusedSchema, create, toBinary } from '@checkpoint/events';
import {
  actor,
  call,
  deliverUserEvent,
  outboxFor,
  startClassService,
  VALID_CLASS,
  type Actor,
  type Harness,
} from './helpers.ts';

const NO_TEACHER = 'No teacher of your school or district has this email. Ask them to sign up with it, then add them.';
const A_STUDENT = 'This email is a student account of your school or district, not a teacher.';

let h: Harness;
beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

type Kind = 'district' | 'school' | 'individual';

async function person(
  role: 'teacher' | 'student' | 'admin',
  tenantId: string,
  tenantKind: Kind,
  firstName = 'Co',
): Promise<Actor & { email: string }> {
  const who = actor(role, tenantId);
  const email = `${firstName.toLowerCase()}.${who.userId.slice(0, 8)}@school.example`;
  await deliverUserEvent(h, 'registered', { ...who, firstName, lastName: 'Teacher', email, tenantKind });
  return { ...who, email };
}

async function createClass(who: Actor, name = 'Biology') {
  const res = await call(h, who, 'POST', '/api/classes', { ...VALID_CLASS, name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; joinCode: string };
}

const invite = (who: Actor, classId: string, email: string) =>
  call(h, who, 'POST', `/api/classes/${classId}/teachers`, { email });

describe('adding a co-teacher', () => {
  it('the owner adds a teacher of the district by email (any case); both see the class, the co-teacher marked', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district', 'Olive');
    const co = await person('teacher', district, 'district', 'Cora');
    const cls = await createClass(owner);

    const res = await invite(owner, cls.id, `  ${co.email.toUpperCase()} `);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ id: co.userId, firstName: 'Cora', lastName: 'Teacher', email: co.email, owner: false });

    const list = await call(h, co, 'GET', '/api/classes');
    expect(list.body.map((c: { id: string; coTeaching: boolean }) => [c.id, c.coTeaching])).toEqual([[cls.id, true]]);
    const ownerList = await call(h, owner, 'GET', '/api/classes');
    expect(ownerList.body.find((c: { id: string }) => c.id === cls.id).coTeaching).toBe(false);

    const teachers = await call(h, co, 'GET', `/api/classes/${cls.id}/teachers`);
    expect(teachers.status).toBe(200);
    expect(teachers.body.map((t: { id: string; owner: boolean }) => [t.id, t.owner])).toEqual([
      [owner.userId, true],
      [co.userId, false],
    ]);

    const events = await outboxFor(h, cls.id);
    const last = events.at(-1)!;
    expect(last.type).toBe('checkpoint.class.v1.ClassUpdated');
    expect(last.message.coTeacherIds).toEqual([co.userId]);
    expect(last.message.teacherId).toBe(owner.userId);
  });

  it('the co-teacher reads the class, its roster, edits and archives it like its teacher', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    const student = actor('student', district);
    expect((await call(h, student, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);

    expect((await call(h, co, 'GET', `/api/classes/${cls.id}`)).body.coTeaching).toBe(true);
    const roster = await call(h, co, 'GET', `/api/classes/${cls.id}/students`);
    expect(roster.body.map((m: { student: { id: string } }) => m.student.id)).toEqual([student.userId]);
    const edited = await call(h, co, 'PUT', `/api/classes/${cls.id}`, {
      name: 'Biology 2',
      subject: 'Science',
      period: '3',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.name).toBe('Biology 2');
    expect((await call(h, co, 'PUT', `/api/classes/${cls.id}/archive`)).status).toBe(200);
    expect((await call(h, co, 'PUT', `/api/classes/${cls.id}/restore`)).status).toBe(200);
    expect((await call(h, co, 'DELETE', `/api/classes/${cls.id}/students/${student.userId}`)).status).toBe(204);
    const updated = (await outboxFor(h, cls.id)).filter((e) => e.type === 'checkpoint.class.v1.ClassUpdated').at(-1)!;
    expect(updated.message.coTeacherIds).toEqual([co.userId]);
  });

  it('an admin of the district can be added as a co-teacher', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const admin = await person('admin', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, admin.email)).status).toBe(201);
  });

  it('refuses a student of the district (404 naming email); an address without a teacher account of the district is invited instead', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const student = await person('student', district, 'district');
    const elsewhere = await person('teacher', randomUUID(), 'district');
    const cls = await createClass(owner);
    const refused = await invite(owner, cls.id, student.email.toUpperCase());
    expect(refused.status).toBe(404);
    expect(refused.body.error ?? refused.body.message).toBe(A_STUDENT);
    expect(refused.body.fields).toEqual({ email: A_STUDENT });
    // Unknown here: invited (identity decides whether the address is the district's to invite).
    for (const email of ['nobody@school.example', elsewhere.email]) {
      const res = await invite(owner, cls.id, email);
      expect(res.status, email).toBe(201);
      expect(res.body).toMatchObject({ email: email.toLowerCase(), owner: false, invitation: 'pending' });
    }
    const teachers = (await call(h, owner, 'GET', `/api/classes/${cls.id}/teachers`)).body;
    expect(teachers.map((t: { invitation?: string }) => t.invitation ?? 'teacher')).toEqual([
      'teacher',
      'pending',
      'pending',
    ]);
  });

  it('an individual account is refused an address that is no individual teacher (404 naming email)', async () => {
    const owner = await person('teacher', randomUUID(), 'individual');
    const cls = await createClass(owner);
    const res = await invite(owner, cls.id, 'nobody@school.example');
    expect(res.status).toBe(404);
    expect(res.body.error ?? res.body.message).toBe(NO_TEACHER);
    expect(res.body.fields).toEqual({ email: NO_TEACHER });
    expect((await call(h, owner, 'GET', `/api/classes/${cls.id}/teachers`)).body).toHaveLength(1);
  });

  it('refuses a malformed email (400 naming the field)', async () => {
    const owner = await person('teacher', randomUUID(), 'district');
    const cls = await createClass(owner);
    const res = await invite(owner, cls.id, 'not-an-email');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('email');
  });

  it('refuses the owner themself or a co-teacher already added (409)', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    expect((await invite(owner, cls.id, co.email)).status).toBe(409);
    expect((await invite(owner, cls.id, owner.email)).status).toBe(409);
  });

  it('only the owner adds (a co-teacher 403, another teacher 404)', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const third = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    expect((await invite(co, cls.id, third.email)).status).toBe(403);
    expect((await invite(third, cls.id, third.email)).status).toBe(404);
    expect((await call(h, third, 'GET', `/api/classes/${cls.id}/teachers`)).status).toBe(404);
    expect(
      (await call(h, actor('student', district), 'POST', `/api/classes/${cls.id}/teachers`, { email: third.email }))
        .status,
    ).toBe(403);
  });

  it('an individual account adds another individual account, not a district teacher', async () => {
    const owner = await person('teacher', randomUUID(), 'individual');
    const other = await person('teacher', randomUUID(), 'individual');
    const districtTeacher = await person('teacher', randomUUID(), 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, districtTeacher.email)).status).toBe(404);
    expect((await invite(owner, cls.id, other.email)).status).toBe(201);
    // The co-teacher, of another (individual) tenant, sees the class and its roster.
    const student = actor('student');
    expect((await call(h, student, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
    expect((await call(h, other, 'GET', `/api/classes/${cls.id}`)).status).toBe(200);
    expect((await call(h, other, 'GET', `/api/classes/${cls.id}/students`)).body).toHaveLength(1);
  });
});

const refuseInvitation = (classId: string, tenantId: string, invitationId: string) =>
  h.bus.publish([
    {
      topic: 'checkpoint.identity.v1',
      key: classId,
      value: toBinary(
        CoTeacherInvitationRefusedSchema,
        create(CoTeacherInvitationRefusedSchema, { invitationId, classId, tenantId }),
      ),
      headers: buildHeaders({
        id: randomUUID(),
        type: CoTeacherInvitationRefusedSchema.typeName,
        source: 'identity',
        time: new Date(),
        tenantId,
      }),
    },
  ]);

describe('inviting an address without an account', () => {
  it('sends CoTeacherInvited; the teacher registered in the district with it becomes a co-teacher', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district', 'Olive');
    const cls = await createClass(owner, 'Chemistry');
    const address = `newbie.${randomUUID().slice(0, 8)}@school.example`;
    const res = await invite(owner, cls.id, address.toUpperCase());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      firstName: null,
      lastName: null,
      email: address,
      owner: false,
      invitation: 'pending',
    });
    expect((await invite(owner, cls.id, address)).status).toBe(409);
    const sent = (await outboxFor(h, cls.id)).at(-1)!;
    expect(sent.type).toBe('checkpoint.class.v1.CoTeacherInvited');
    expect(sent.message).toMatchObject({
      invitationId: res.body.id,
      classId: cls.id,
      tenantId: district,
      email: address,
      invitedBy: owner.userId,
      className: 'Chemistry',
    });

    // The same address registered elsewhere, or as a student of the district: not applied.
    await deliverUserEvent(h, 'registered', {
      ...actor('teacher', randomUUID()),
      firstName: 'Other',
      lastName: 'Place',
      email: address,
      tenantKind: 'district',
    });
    expect((await call(h, owner, 'GET', `/api/classes/${cls.id}/teachers`)).body).toHaveLength(2);

    const newbie = actor('teacher', district);
    await deliverUserEvent(h, 'registered', {
      ...newbie,
      firstName: 'Nia',
      lastName: 'New',
      email: address.toUpperCase(),
      tenantKind: 'district',
    });
    const teachers = (await call(h, newbie, 'GET', `/api/classes/${cls.id}/teachers`)).body;
    expect(teachers.map((t: { id: string; invitation?: string }) => [t.id, t.invitation ?? 'teacher'])).toEqual([
      [owner.userId, 'teacher'],
      [newbie.userId, 'teacher'],
    ]);
    const updated = (await outboxFor(h, cls.id)).at(-1)!;
    expect(updated.type).toBe('checkpoint.class.v1.ClassUpdated');
    expect(updated.message.coTeacherIds).toEqual([newbie.userId]);
    expect((await call(h, newbie, 'GET', '/api/classes')).body.map((c: { id: string }) => c.id)).toEqual([cls.id]);
  });

  it("identity's refusal shows on the list; the owner withdraws it, a co-teacher may not", async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    const pending = await invite(owner, cls.id, 'outsider@elsewhere.example');
    const invitationId = pending.body.id as string;
    await refuseInvitation(cls.id, district, invitationId);
    const list = (await call(h, owner, 'GET', `/api/classes/${cls.id}/teachers`)).body;
    expect(list.at(-1)).toMatchObject({ id: invitationId, email: 'outsider@elsewhere.example', invitation: 'refused' });

    const path = `/api/classes/${cls.id}/teachers/${invitationId}`;
    expect((await call(h, co, 'DELETE', path)).status).toBe(403);
    expect((await call(h, owner, 'DELETE', path)).status).toBe(204);
    expect((await call(h, owner, 'DELETE', path)).status).toBe(404);
    expect((await call(h, owner, 'GET', `/api/classes/${cls.id}/teachers`)).body).toHaveLength(2);
  });

  it('a withdrawn invitation is not applied when the account comes', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    const address = `late.${randomUUID().slice(0, 8)}@school.example`;
    const invited = await invite(owner, cls.id, address);
    expect((await call(h, owner, 'DELETE', `/api/classes/${cls.id}/teachers/${invited.body.id}`)).status).toBe(204);
    const late = actor('teacher', district);
    await deliverUserEvent(h, 'registered', { ...late, firstName: 'L', lastName: 'Ate', email: address });
    expect((await call(h, late, 'GET', `/api/classes/${cls.id}`)).status).toBe(404);
  });

  it('invitations count towards the most co-teachers', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    for (let i = 0; i < 20; i++)
      expect((await invite(owner, cls.id, `p${i}.${cls.id.slice(0, 8)}@school.example`)).status).toBe(201);
    const full = await invite(owner, cls.id, `p20.${cls.id.slice(0, 8)}@school.example`);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('co_teachers_full');
    const co = await person('teacher', district, 'district');
    expect((await invite(owner, cls.id, co.email)).status).toBe(409);
  });
});

describe('removing and deleting', () => {
  it('a co-teacher cannot delete the class (403) nor remove the owner; the owner can delete it', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);

    const del = await call(h, co, 'DELETE', `/api/classes/${cls.id}`);
    expect(del.status).toBe(403);
    expect(del.body.error ?? del.body.message).toBe("Only the class's owner can delete it");
    expect((await call(h, co, 'DELETE', `/api/classes/${cls.id}/teachers/${owner.userId}`)).status).toBe(403);
    expect((await call(h, owner, 'DELETE', `/api/classes/${cls.id}/teachers/${owner.userId}`)).status).toBe(403);
    expect((await h.sql.query('select 1 from classes where id = $1', [cls.id])).rowCount).toBe(1);

    expect((await call(h, owner, 'DELETE', `/api/classes/${cls.id}`)).status).toBe(204);
  });

  it('the owner removes a co-teacher, who then no longer finds the class', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const other = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    expect((await invite(owner, cls.id, other.email)).status).toBe(201);
    // A co-teacher may not remove another one.
    expect((await call(h, co, 'DELETE', `/api/classes/${cls.id}/teachers/${other.userId}`)).status).toBe(403);

    expect((await call(h, owner, 'DELETE', `/api/classes/${cls.id}/teachers/${co.userId}`)).status).toBe(204);
    expect((await call(h, co, 'GET', `/api/classes/${cls.id}`)).status).toBe(404);
    expect((await call(h, co, 'GET', '/api/classes')).body).toEqual([]);
    expect((await call(h, owner, 'DELETE', `/api/classes/${cls.id}/teachers/${co.userId}`)).status).toBe(404);
    const updated = (await outboxFor(h, cls.id)).at(-1)!;
    expect(updated.type).toBe('checkpoint.class.v1.ClassUpdated');
    expect(updated.message.coTeacherIds).toEqual([other.userId]);
  });

  it('a co-teacher leaves the class by removing themself', async () => {
    const district = randomUUID();
    const owner = await person('teacher', district, 'district');
    const co = await person('teacher', district, 'district');
    const cls = await createClass(owner);
    expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    expect((await call(h, co, 'DELETE', `/api/classes/${cls.id}/teachers/${co.userId}`)).status).toBe(204);
    expect((await call(h, co, 'GET', `/api/classes/${cls.id}`)).status).toBe(404);
  });
});

describe('plan limits count the owner classes only', () => {
  it('an individual co-teaching classes of others still creates 3 of their own; students count for the owner', async () => {
    const co = await person('teacher', randomUUID(), 'individual');
    for (let i = 0; i < 3; i++) {
      const owner = await person('teacher', randomUUID(), 'individual');
      const cls = await createClass(owner, `Theirs ${i}`);
      expect((await invite(owner, cls.id, co.email)).status).toBe(201);
    }
    for (let i = 0; i < 3; i++) await createClass(co, `Mine ${i}`);
    expect((await call(h, co, 'POST', '/api/classes', { ...VALID_CLASS, name: 'One too many' })).status).toBe(403);
    expect((await call(h, co, 'GET', '/api/classes')).body).toHaveLength(6);
  });

  it('students of a co-taught class count for its owner, not for the co-teacher', async () => {
    const owner = await person('teacher', randomUUID(), 'individual');
    const co = await person('teacher', randomUUID(), 'individual');
    const theirs = await createClass(owner, 'Theirs');
    expect((await invite(owner, theirs.id, co.email)).status).toBe(201);
    for (let i = 0; i < 50; i++) {
      const res = await call(h, actor('student'), 'POST', '/api/classes/join', { joinCode: theirs.joinCode });
      expect(res.status).toBe(200);
    }
    // The owner's 50 are their limit…
    expect((await call(h, actor('student'), 'POST', '/api/classes/join', { joinCode: theirs.joinCode })).status).toBe(
      403,
    );
    // …and none of the co-teacher's: their own class still takes students.
    const mine = await createClass(co, 'Mine');
    expect((await call(h, actor('student'), 'POST', '/api/classes/join', { joinCode: mine.joinCode })).status).toBe(
      200,
    );
  });
});
