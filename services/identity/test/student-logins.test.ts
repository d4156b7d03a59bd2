// Students without email (docs/adr/015-students-without-email.md) against a real Postgres: a
// teacher of a class (identity's copy, from the class service's events) makes accounts with a
// username and a picture or two words; the students sign in with the class code, their name and
// their picture or words (wrong ones rate-limited per student), or with a login card (revoked and
// expired cards refused); the teacher resets a password. The rows are in the privacy export and
// erased with the student.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHeaders,
  ClassCreatedSchema,
  create,
  fromBinary,
  StudentAccountCreatedSchema,
  toBinary,
} from '@checkpoint/events';
import { eventually } from '@checkpoint/testkit';
import { hashPassword } from '../src/domain/password.ts';
import { Browser, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let districtId: string;
let owner: Browser;
let admin: Browser;
let ownerId: string;
beforeAll(async () => {
  h = await startHarness();
  districtId = randomUUID();
  await h.db.query(
    `insert into tenants (id, name, kind, email_domains) values ($1, 'Oak District', 'district', '{}')`,
    [districtId],
  );
  ownerId = (await member('teacher')).id;
  owner = await signedIn(`t.${ownerId.slice(0, 8)}@oak.example.org`);
  const adminId = (await member('admin')).id;
  admin = await signedIn(`t.${adminId.slice(0, 8)}@oak.example.org`);
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

const PASSWORD = 'correct horse battery';

async function member(role: 'teacher' | 'admin') {
  const id = randomUUID();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Olive', 'Owner', $4)`,
    [id, districtId, `t.${id.slice(0, 8)}@oak.example.org`, role],
  );
  await h.db.query(`insert into credentials (user_id, password_hash) values ($1, $2)`, [
    id,
    await hashPassword(PASSWORD),
  ]);
  return { id };
}

async function signedIn(email: string) {
  const b = new Browser(h.identity.url);
  const res = await b.request('POST', '/api/auth/simple-login', { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return b;
}

/** A class of the district, as the class service announces it. */
async function classOf(teacherId: string) {
  const classId = randomUUID();
  const joinCode = randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();
  await h.bus.publish([
    {
      topic: 'checkpoint.class.v1',
      key: classId,
      value: toBinary(
        ClassCreatedSchema,
        create(ClassCreatedSchema, { classId, tenantId: districtId, teacherId, name: '2nd grade', joinCode }),
      ),
      headers: buildHeaders({
        id: randomUUID(),
        type: ClassCreatedSchema.typeName,
        source: 'class',
        time: new Date(),
        tenantId: districtId,
      }),
    },
  ]);
  await eventually(
    () => h.db.query(`select 1 from login_classes where class_id = $1`, [classId]),
    (r) => r.rowCount === 1,
  );
  return { classId, joinCode };
}

async function makeStudent(classId: string, overrides: Record<string, unknown> = {}) {
  const username = `kid.${randomUUID().slice(0, 8)}`;
  const res = await owner.request('POST', `/api/classes/${classId}/student-logins`, {
    firstName: 'Maya',
    lastName: 'rivera',
    username,
    secret: { kind: 'picture', picture: 'cat' },
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; username: string };
}

describe('student accounts without email', () => {
  it('a teacher of the class makes one (no email, username unique in the district, the class told)', async () => {
    const { classId } = await classOf(ownerId);
    const made = await makeStudent(classId, { username: 'Maya.R' });
    expect(made.username).toBe('maya.r');
    const { rows } = await h.db.query(`select email, role, tenant_id from users where id = $1`, [made.id]);
    expect(rows[0]).toEqual({ email: null, role: 'student', tenant_id: districtId });
    const events = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.StudentAccountCreated' and key = $1`,
      [made.id],
    );
    expect(fromBinary(StudentAccountCreatedSchema, events.rows[0]!.payload)).toMatchObject({
      userId: made.id,
      classId,
      tenantId: districtId,
      createdBy: ownerId,
    });
    // The same username in another case, in another class of the district: taken.
    const other = await classOf(ownerId);
    const taken = await owner.request('POST', `/api/classes/${other.classId}/student-logins`, {
      firstName: 'Max',
      username: 'MAYA.r',
      secret: { kind: 'words', words: 'blue fox' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.fields).toEqual({ username: expect.stringContaining('taken') });

    const list = await owner.request('GET', `/api/classes/${classId}/student-logins`);
    expect(list.status).toBe(200);
    expect(list.body.students).toEqual([expect.objectContaining({ id: made.id, signInWith: 'picture' })]);
  });

  it('refuses a teacher of another class (404) and a picture not of the set (400)', async () => {
    const { classId } = await classOf(ownerId);
    const stranger = await signedIn(`t.${(await member('teacher')).id.slice(0, 8)}@oak.example.org`);
    const res = await stranger.request('POST', `/api/classes/${classId}/student-logins`, {
      firstName: 'Sam',
      username: `sam.${randomUUID().slice(0, 6)}`,
      secret: { kind: 'picture', picture: 'dog' },
    });
    expect(res.status).toBe(404);
    expect((await stranger.request('POST', `/api/classes/${classId}/login-cards`)).status).toBe(404);
    const bad = await owner.request('POST', `/api/classes/${classId}/student-logins`, {
      firstName: 'Sam',
      username: 'sam',
      secret: { kind: 'picture', picture: 'unicorn' },
    });
    expect(bad.status).toBe(400);
  });

  it('a student signs in with the class code, their name and their picture', async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const made = await makeStudent(classId);
    const kid = new Browser(h.identity.url);
    const roster = await kid.request('POST', '/api/auth/class-code', { classCode: ` ${joinCode.toLowerCase()} ` });
    expect(roster.status).toBe(200);
    expect(roster.body.students).toEqual([{ id: made.id, name: 'Maya R.' }]);
    expect((await kid.request('POST', '/api/auth/class-code', { classCode: 'NOPE99' })).status).toBe(404);

    const res = await kid.request('POST', '/api/auth/class-code/login', {
      classCode: joinCode,
      studentId: made.id,
      secret: { kind: 'picture', picture: 'cat' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ id: made.id, role: 'student', email: '' });
    expect(kid.cookie('cp_session')).toBeTruthy();
    expect((await kid.request('GET', '/api/auth/user')).body).toMatchObject({ id: made.id, firstName: 'Maya' });
  });

  it('wrong pictures are rate-limited per student: locked after 5, even for the right one', async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const made = await makeStudent(classId);
    const classmate = await makeStudent(classId, { secret: { kind: 'words', words: ' Sunny   APPLE ' } });
    const kid = new Browser(h.identity.url);
    const attempt = (studentId: string, secret: unknown) =>
      kid.request('POST', '/api/auth/class-code/login', { classCode: joinCode, studentId, secret });
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt(made.id, { kind: 'picture', picture: 'dog' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toContain('not your picture');
    }
    const locked = await attempt(made.id, { kind: 'picture', picture: 'cat' });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many tries/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(60);
    // A classmate is not locked by it; words are compared as typed in any case and spacing.
    expect((await attempt(classmate.id, { kind: 'words', words: 'sunny apple' })).status).toBe(200);
  });

  it('the teacher resets a password: the old picture stops working, the new words work', async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const made = await makeStudent(classId);
    const reset = await owner.request('PUT', `/api/classes/${classId}/student-logins/${made.id}/secret`, {
      secret: { kind: 'words', words: 'red kite' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.signInWith).toBe('words');
    const kid = new Browser(h.identity.url);
    const old = await kid.request('POST', '/api/auth/class-code/login', {
      classCode: joinCode,
      studentId: made.id,
      secret: { kind: 'picture', picture: 'cat' },
    });
    expect(old.status).toBe(401);
    const now = await kid.request('POST', '/api/auth/class-code/login', {
      classCode: joinCode,
      studentId: made.id,
      secret: { kind: 'words', words: 'red kite' },
    });
    expect(now.status).toBe(200);
  });

  it('login cards sign in; revoked, reissued and expired cards are refused', async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const made = await makeStudent(classId);
    const printed = await owner.request('POST', `/api/classes/${classId}/login-cards`);
    expect(printed.status).toBe(201);
    expect(printed.body.classCode).toBe(joinCode);
    const card = printed.body.cards[0] as { studentId: string; url: string; expiresAt: string };
    expect(card.studentId).toBe(made.id);
    expect(card.url).toMatch(/\/login-card#[A-Za-z0-9_-]{40,}$/);
    const days = (Date.parse(card.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(179);
    expect(days).toBeLessThan(181);
    const token = card.url.split('#')[1]!;
    // Stored hashed only.
    const stored = await h.db.query(`select secret_hash from login_cards where user_id = $1`, [made.id]);
    expect(stored.rows[0].secret_hash).not.toContain(token);

    const kid = new Browser(h.identity.url);
    const ok = await kid.request('POST', '/api/auth/login-card', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(made.id);
    expect((await owner.request('GET', `/api/classes/${classId}/student-logins`)).body.cards.inForce).toBe(1);

    // Reissued: the first card stops working, the new one works.
    const again = await owner.request('POST', `/api/classes/${classId}/login-cards`);
    const second = (again.body.cards[0].url as string).split('#')[1]!;
    const refused = await new Browser(h.identity.url).request('POST', '/api/auth/login-card', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Ask your teacher for a new card');
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/login-card', { token: second })).status).toBe(
      200,
    );

    // Revoked.
    const revoked = await owner.request('DELETE', `/api/classes/${classId}/login-cards`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(1);
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/login-card', { token: second })).status).toBe(
      403,
    );

    // Expired.
    const third = (
      (await owner.request('POST', `/api/classes/${classId}/login-cards`)).body.cards[0].url as string
    ).split('#')[1]!;
    await h.db.query(`update login_cards set expires_at = now() - interval '1 second' where class_id = $1`, [classId]);
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/login-card', { token: third })).status).toBe(
      403,
    );
    expect((await new Browser(h.identity.url).request('POST', '/api/auth/login-card', { token: 'x' })).status).toBe(
      403,
    );
  });

  it("the student's login and cards are in the privacy export and erased with the student", async () => {
    const { classId } = await classOf(ownerId);
    const made = await makeStudent(classId);
    expect((await owner.request('POST', `/api/classes/${classId}/login-cards`)).status).toBe(201);
    const exported = await admin.request('POST', `/api/district/students/${made.id}/exports`);
    expect(exported.status).toBe(202);
    const answer = await h.db.query<{ json: string }>(
      `select a.json from privacy_request_answers a where a.request_id = $1 and a.service = 'identity'`,
      [exported.body.requestId],
    );
    const doc = JSON.parse(answer.rows[0]!.json) as { tables: Record<string, Record<string, unknown>[]> };
    expect(doc.tables.student_logins?.[0]).toMatchObject({ username: made.username });
    expect(doc.tables.login_cards).toHaveLength(1);

    const erased = await admin.request('DELETE', `/api/district/students/${made.id}`);
    expect(erased.status).toBe(202);
    for (const table of ['users', 'student_logins', 'login_cards'])
      expect(
        (await h.db.query(`select 1 from ${table} where ${table === 'users' ? 'id' : 'user_id'} = $1`, [made.id]))
          .rowCount,
      ).toBe(0);
    expect((await h.db.query(`select 1 from login_class_members where student_id = $1`, [made.id])).rowCount).toBe(0);
  });

  it('a self sign-up asks the age band: a student under 13 is sent to the teacher, unless at their district', async () => {
    const b = new Browser(h.identity.url);
    const body = (overrides: Record<string, unknown>) => ({
      firstName: 'Lia',
      lastName: 'Young',
      email: `lia.${randomUUID().slice(0, 8)}@example.com`,
      password: 'correct horse',
      role: 'student',
      ...overrides,
    });
    const refused = await b.request('POST', '/api/auth/simple-signup', body({ ageBand: 'under_13' }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('under_13_needs_teacher');
    expect(refused.body.message).toContain('Ask your teacher for a login card');
    expect((await b.request('POST', '/api/auth/simple-signup', body({ ageBand: '13_or_older' }))).status).toBe(202);
    // Clients older than the field send none.
    expect((await b.request('POST', '/api/auth/simple-signup', body({}))).status).toBe(202);
    expect((await b.request('POST', '/api/auth/simple-signup', body({ ageBand: 'ten' }))).status).toBe(400);
    // At the district's own domain: the school's authorization, a link as for anyone.
    const domain = `oak-${randomUUID().slice(0, 8)}.example.org`;
    await h.db.query(`update tenants set email_domains = $2 where id = $1`, [districtId, [domain]]);
    const atDistrict = await b.request(
      'POST',
      '/api/auth/simple-signup',
      body({ ageBand: 'under_13', email: `lia@${domain}` }),
    );
    expect(atDistrict.status).toBe(202);
  });
});

describe('students without a mailbox who came from the roster or an LMS', () => {
  /** A student of the district rostered without an email (the roster's placeholder), in the class. */
  async function rosteredInto(classId: string, email = `roster-${randomUUID().slice(0, 12)}@roster.invalid`) {
    const id = randomUUID();
    await h.db.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Rosa', 'Diaz', 'student')`,
      [id, districtId, email],
    );
    // As the class service's StudentEnrolled leaves it in identity's copy of the class.
    await h.db.query(`insert into login_class_members (class_id, student_id) values ($1, $2)`, [classId, id]);
    return id;
  }

  it("the class's teacher sees who cannot sign in yet and gives them a username and a picture; they sign in with the class code", async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const rosa = await rosteredInto(classId);
    const withMail = await rosteredInto(classId, `pat.${randomUUID().slice(0, 8)}@oak.example.org`);
    const before = await owner.request('GET', `/api/classes/${classId}/student-logins`);
    expect(before.body.withoutSignIn).toEqual([{ id: rosa, firstName: 'Rosa', lastName: 'Diaz' }]);

    const username = `rosa.${randomUUID().slice(0, 6)}`;
    const res = await owner.request('PUT', `/api/classes/${classId}/student-logins/${rosa}`, {
      username,
      secret: { kind: 'picture', picture: 'moon' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: rosa, username, signInWith: 'picture' });
    const after = await owner.request('GET', `/api/classes/${classId}/student-logins`);
    expect(after.body.withoutSignIn).toEqual([]);
    expect(after.body.students).toEqual([expect.objectContaining({ id: rosa })]);

    const kid = new Browser(h.identity.url);
    expect((await kid.request('POST', '/api/auth/class-code', { classCode: joinCode })).body.students).toEqual([
      { id: rosa, name: 'Rosa D.' },
    ]);
    const signIn = await kid.request('POST', '/api/auth/class-code/login', {
      classCode: joinCode,
      studentId: rosa,
      secret: { kind: 'picture', picture: 'moon' },
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    expect(signIn.body.user).toMatchObject({ id: rosa, role: 'student' });

    // Twice: reset instead. A student with an e-mail: they sign in with it. Not in the class: 404.
    const again = await owner.request('PUT', `/api/classes/${classId}/student-logins/${rosa}`, {
      username: `${username}x`,
      secret: { kind: 'picture', picture: 'sun' },
    });
    expect([again.status, again.body.code]).toEqual([409, 'has_sign_in']);
    const mail = await owner.request('PUT', `/api/classes/${classId}/student-logins/${withMail}`, {
      username: `pat.${randomUUID().slice(0, 6)}`,
      secret: { kind: 'picture', picture: 'sun' },
    });
    expect([mail.status, mail.body.code]).toEqual([409, 'has_email']);
    const other = await classOf(ownerId);
    const elsewhere = await owner.request('PUT', `/api/classes/${other.classId}/student-logins/${rosa}`, {
      username: `r.${randomUUID().slice(0, 6)}`,
      secret: { kind: 'picture', picture: 'sun' },
    });
    expect(elsewhere.status).toBe(404);
    // A username already taken in the district, with its field named.
    const taken = await owner.request('PUT', `/api/classes/${classId}/student-logins/${await rosteredInto(classId)}`, {
      username: username.toUpperCase(),
      secret: { kind: 'words', words: 'red kite' },
    });
    expect([taken.status, taken.body.fields]).toEqual([409, { username: expect.stringContaining('taken') }]);
    // Another teacher of the district: not their class.
    const stranger = await signedIn(`t.${(await member('teacher')).id.slice(0, 8)}@oak.example.org`);
    expect((await stranger.request('GET', `/api/classes/${classId}/student-logins`)).status).toBe(404);
  });

  it("a district admin sets a student's first picture (username required), then resets and renames it; the old one stops working; other districts' students are not found", async () => {
    const { classId, joinCode } = await classOf(ownerId);
    const rosa = await rosteredInto(classId);
    const path = `/api/district/students/${rosa}/sign-in`;
    const noName = await admin.request('PUT', path, { secret: { kind: 'picture', picture: 'tree' } });
    expect([noName.status, noName.body.fields]).toEqual([400, { username: 'Username is required' }]);
    const username = `rosa.${randomUUID().slice(0, 6)}`;
    const first = await admin.request('PUT', path, { username, secret: { kind: 'picture', picture: 'tree' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ id: rosa, username, signInWith: 'picture' });

    const list = await admin.request('GET', `/api/district/users?role=student&search=${username}`);
    expect(list.body.users).toEqual([
      expect.objectContaining({ id: rosa, username, signInWith: 'picture', source: 'unknown' }),
    ]);

    const renamed = `${username}b`;
    const reset = await admin.request('PUT', path, {
      username: renamed,
      secret: { kind: 'words', words: 'green frog' },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toMatchObject({ username: renamed, signInWith: 'words' });
    const kid = new Browser(h.identity.url);
    const login = (secret: object) =>
      kid.request('POST', '/api/auth/class-code/login', { classCode: joinCode, studentId: rosa, secret });
    expect((await login({ kind: 'picture', picture: 'tree' })).status).toBe(401);
    expect((await login({ kind: 'words', words: 'Green  Frog' })).status).toBe(200);
    // In the district's audit log, in words.
    await eventually(
      () =>
        h.db.query(
          `select target_ids from audit_log where resource = 'PUT /api/district/students/{id}/sign-in' and $1 = any(target_ids)`,
          [rosa],
        ),
      (r) => r.rowCount === 2,
    );

    // A teacher is no admin (403); a student of another district, or a teacher, is not found.
    expect((await owner.request('PUT', path, { secret: { kind: 'picture', picture: 'tree' } })).status).toBe(403);
    expect(
      (
        await admin.request('PUT', `/api/district/students/${ownerId}/sign-in`, {
          secret: { kind: 'picture', picture: 'tree' },
        })
      ).status,
    ).toBe(404);
    const elsewhere = randomUUID();
    await h.db.query(
      `insert into tenants (id, name, kind, email_domains) values ($1, 'Elm District', 'district', '{}')`,
      [elsewhere],
    );
    const outsider = randomUUID();
    await h.db.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, null, 'Eli', 'Elm', 'student')`,
      [outsider, elsewhere],
    );
    expect(
      (
        await admin.request('PUT', `/api/district/students/${outsider}/sign-in`, {
          username: `eli.${randomUUID().slice(0, 6)}`,
          secret: { kind: 'picture', picture: 'tree' },
        })
      ).status,
    ).toBe(404);
  });
});
