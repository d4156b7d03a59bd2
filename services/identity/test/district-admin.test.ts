// District administration (/api/district/**) against a real Postgres: a district's admin reads
// its users, removes accounts (signed out at once) and promotes or demotes staff; another
// district's ids are "not found"; and preference changes are published for the digest.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fromBinary,
  TenantJoinPolicyChangedSchema,
  TenantRetentionChangedSchema,
  UserUpdatedSchema,
} from '@checkpoint/events';
import { startMailCatcher, type MailCatcher } from '@checkpoint/testkit';
import { hashPassword } from '../src/domain/password.ts';
import { Browser, startHarness, type Harness } from './helpers.ts';

const PASSWORD = 'correct horse battery';
let h: Harness;
let mail: MailCatcher;
let passwordHash: string;

beforeAll(async () => {
  mail = await startMailCatcher();
  h = await startHarness({ SMTP_URL: mail.url });
  passwordHash = await hashPassword(PASSWORD);
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await mail?.stop();
}, 60_000);

async function district(name: string): Promise<{ id: string; domain: string }> {
  const id = randomUUID();
  const domain = `${name.toLowerCase().replace(/\W+/g, '')}-${id.slice(0, 8)}.example.org`;
  await h.db.query(`insert into tenants (id, name, kind, email_domains) values ($1, $2, 'district', $3)`, [
    id,
    name,
    [domain],
  ]);
  return { id, domain };
}

interface Person {
  id: string;
  email: string;
}

async function person(
  tenant: { id: string; domain: string },
  role: string,
  firstName: string,
  lastName: string,
): Promise<Person> {
  const id = randomUUID();
  const email = `${firstName}.${lastName}.${id.slice(0, 6)}@${tenant.domain}`.toLowerCase();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, $4, $5, $6)`,
    [id, tenant.id, email, firstName, lastName, role],
  );
  await h.db.query(`insert into credentials (user_id, password_hash) values ($1, $2)`, [id, passwordHash]);
  return { id, email };
}

async function signIn(p: Person): Promise<Browser> {
  const b = new Browser(h.identity.url);
  const res = await b.request('POST', '/api/auth/simple-login', { email: p.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return b;
}

async function updates(userId: string) {
  const events = await h.db.query<{ payload: Buffer }>(
    `select payload from outbox where type = 'checkpoint.identity.v1.UserUpdated' and key = $1 order by created_at`,
    [userId],
  );
  return events.rows.map((r) => fromBinary(UserUpdatedSchema, r.payload));
}

describe('GET /api/district and /api/district/users', () => {
  it('when the admin reads the district, then its name, domains, sign-in setting and counts by role, and a teacher gets 403', async () => {
    const a = await district('Maple District');
    const admin = await person(a, 'admin', 'Ada', 'Admin');
    const teacher = await person(a, 'teacher', 'Tom', 'Teach');
    await person(a, 'student', 'Sam', 'Stu');
    await person(a, 'student', 'Sue', 'Stu');
    const res = await (await signIn(admin)).request('GET', '/api/district');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: a.id,
      name: 'Maple District',
      kind: 'district',
      emailDomains: [a.domain],
      passwordSignIn: true,
      counts: { student: 2, teacher: 1, admin: 1, disabled: 0 },
    });
    expect((await (await signIn(teacher)).request('GET', '/api/district')).status).toBe(403);
  });

  it('when the admin lists users, then pages by last name with a cursor, search and role filter work, no hashes, and another district is not there', async () => {
    const a = await district('Oak District');
    const b = await district('Elm District');
    const admin = await person(a, 'admin', 'Ada', 'Anders');
    await person(a, 'teacher', 'Bea', 'Brown');
    await person(a, 'student', 'Cy', 'Clark');
    await person(a, 'student', 'Di', 'Dunn');
    await person(a, 'student', 'Ed', 'Evans_x');
    const foreign = await person(b, 'student', 'Zed', 'Zulu');
    const browser = await signIn(admin);

    const first = await browser.request('GET', '/api/district/users?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.users.map((u: { lastName: string }) => u.lastName)).toEqual(['Anders', 'Brown']);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await browser.request('GET', `/api/district/users?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.users.map((u: { lastName: string }) => u.lastName)).toEqual(['Clark', 'Dunn']);
    const third = await browser.request('GET', `/api/district/users?limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body.users.map((u: { lastName: string }) => u.lastName)).toEqual(['Evans_x']);
    expect(third.body.nextCursor).toBeNull();

    const all = [...first.body.users, ...second.body.users, ...third.body.users];
    expect(all.map((u: { id: string }) => u.id)).not.toContain(foreign.id);
    for (const u of all) expect(Object.keys(u).filter((k) => /hash|token|password|secret/i.test(k))).toEqual([]);
    expect(all[0]).toMatchObject({ emailVerified: false, disabled: false, source: 'password', role: 'admin' });

    const students = await browser.request('GET', '/api/district/users?role=student');
    expect(students.body.users).toHaveLength(3);
    // The LIKE wildcard `_` is matched literally.
    const search = await browser.request('GET', '/api/district/users?search=s_x');
    expect(search.body.users.map((u: { lastName: string }) => u.lastName)).toEqual(['Evans_x']);
    const byEmail = await browser.request('GET', `/api/district/users?search=${encodeURIComponent(foreign.email)}`);
    expect(byEmail.body.users).toEqual([]);
  });

  it('when the query is out of range or the cursor made up, then 400 names the field', async () => {
    const a = await district('Ash District');
    const browser = await signIn(await person(a, 'admin', 'Ada', 'Ash'));
    const tooMany = await browser.request('GET', '/api/district/users?limit=201');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.fields).toHaveProperty('limit');
    const role = await browser.request('GET', '/api/district/users?role=owner');
    expect(role.status).toBe(400);
    expect(role.body.fields).toHaveProperty('role');
    const cursor = await browser.request('GET', '/api/district/users?cursor=bm9wZQ');
    expect(cursor.status).toBe(400);
    expect(cursor.body.fields).toHaveProperty('cursor');
  });
});

describe('DELETE /api/district/users/{id}', () => {
  it('when the admin removes a teacher, then the account is disabled, its session ends at once, UserUpdated says disabled, and it cannot sign in', async () => {
    const a = await district('Birch District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Birch'));
    const teacher = await person(a, 'teacher', 'Tom', 'Birch');
    const teacherBrowser = await signIn(teacher);
    expect((await teacherBrowser.request('GET', '/api/auth/user')).status).toBe(200);

    const res = await admin.request('DELETE', `/api/district/users/${teacher.id}`);
    expect(res.status).toBe(204);
    expect((await teacherBrowser.request('GET', '/api/auth/user')).status).toBe(401);
    const revoked = await h.db.query('select 1 from sessions where user_id = $1 and revoked_at is null', [teacher.id]);
    expect(revoked.rowCount).toBe(0);
    const relogin = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: teacher.email,
      password: PASSWORD,
    });
    expect(relogin.status).toBe(401);
    const events = await updates(teacher.id);
    expect(events.at(-1)).toMatchObject({ userId: teacher.id, disabled: true });

    // Removing again changes nothing; the list shows the account as disabled.
    expect((await admin.request('DELETE', `/api/district/users/${teacher.id}`)).status).toBe(204);
    expect(await updates(teacher.id)).toHaveLength(events.length);
    const list = await admin.request('GET', '/api/district/users?role=teacher');
    expect(list.body.users).toEqual([expect.objectContaining({ id: teacher.id, disabled: true })]);
    const overview = await admin.request('GET', '/api/district');
    expect(overview.body.counts).toMatchObject({ teacher: 0, disabled: 1 });
  });

  it('when the admin removes themself, another district’s user or an unknown id, then 409, 404, 404 and nothing changes', async () => {
    const a = await district('Cedar District');
    const b = await district('Pine District');
    const me = await person(a, 'admin', 'Ada', 'Cedar');
    const admin = await signIn(me);
    const foreign = await person(b, 'teacher', 'Tom', 'Pine');
    const self = await admin.request('DELETE', `/api/district/users/${me.id}`);
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('cannot_remove_self');
    expect((await admin.request('DELETE', `/api/district/users/${foreign.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/district/users/${randomUUID()}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/district/users/not-a-uuid`)).status).toBe(400);
    const rows = await h.db.query('select 1 from users where id = any($1) and disabled_at is not null', [
      [me.id, foreign.id],
    ]);
    expect(rows.rowCount).toBe(0);
  });

  it('when a student is removed, then it is disabled too', async () => {
    const a = await district('Fir District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Fir'));
    const student = await person(a, 'student', 'Sam', 'Fir');
    expect((await admin.request('DELETE', `/api/district/users/${student.id}`)).status).toBe(204);
    const row = await h.db.query('select disabled_at from users where id = $1', [student.id]);
    expect(row.rows[0].disabled_at).not.toBeNull();
  });
});

describe('PATCH /api/district/users/{id}', () => {
  it('when a teacher is promoted and then demoted, then the role changes with UserUpdated each time and the demoted admin is signed out', async () => {
    const a = await district('Willow District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Willow'));
    const teacher = await person(a, 'teacher', 'Tom', 'Willow');
    const promoted = await admin.request('PATCH', `/api/district/users/${teacher.id}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ id: teacher.id, role: 'admin' });
    expect((await updates(teacher.id)).at(-1)).toMatchObject({ role: 'admin', disabled: false });

    const asAdmin = await signIn(teacher);
    expect((await asAdmin.request('GET', '/api/district')).status).toBe(200);
    const demoted = await admin.request('PATCH', `/api/district/users/${teacher.id}`, { role: 'teacher' });
    expect(demoted.status).toBe(200);
    expect((await updates(teacher.id)).at(-1)).toMatchObject({ role: 'teacher' });
    // Their admin token stops at once (the session ended), not when it expires.
    expect((await asAdmin.request('GET', '/api/auth/user')).status).toBe(401);
  });

  it('when the admin changes their own role, a student is made staff, another district’s user or a bad role, then 409, 409, 404 and 400', async () => {
    const a = await district('Spruce District');
    const b = await district('Yew District');
    const me = await person(a, 'admin', 'Ada', 'Spruce');
    const admin = await signIn(me);
    const student = await person(a, 'student', 'Sam', 'Spruce');
    const foreign = await person(b, 'teacher', 'Tom', 'Yew');

    const self = await admin.request('PATCH', `/api/district/users/${me.id}`, { role: 'teacher' });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('cannot_change_own_role');
    const staff = await admin.request('PATCH', `/api/district/users/${student.id}`, { role: 'teacher' });
    expect(staff.status).toBe(409);
    expect(staff.body.code).toBe('student_cannot_be_staff');
    expect((await admin.request('PATCH', `/api/district/users/${foreign.id}`, { role: 'admin' })).status).toBe(404);
    const bad = await admin.request('PATCH', `/api/district/users/${student.id}`, { role: 'student' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('role');
    const roles = await h.db.query<{ role: string }>('select role from users where id = any($1) order by role', [
      [me.id, student.id, foreign.id],
    ]);
    expect(roles.rows.map((r) => r.role)).toEqual(['admin', 'student', 'teacher']);
  });

  it('when an admin was demoted meanwhile but still holds a token, then their changes are refused', async () => {
    const a = await district('Alder District');
    const first = await person(a, 'admin', 'Ada', 'Alder');
    const second = await person(a, 'admin', 'Bo', 'Alder');
    const teacher = await person(a, 'teacher', 'Tom', 'Alder');
    const firstBrowser = await signIn(first);
    // Demoted behind the API's back (as an operator might): the token still says admin.
    await h.db.query(`update users set role = 'teacher' where id = $1`, [first.id]);
    const res = await firstBrowser.request('DELETE', `/api/district/users/${teacher.id}`);
    expect(res.status).toBe(403);
    expect((await (await signIn(second)).request('DELETE', `/api/district/users/${teacher.id}`)).status).toBe(204);
  });
});

describe('invitations', () => {
  it('when the admin invites a new address (any domain), then 202, a mail with a link arrives, the invitation is listed, and revoking it ends the link', async () => {
    const a = await district('Poplar District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Poplar'));
    const email = `Invitee.${randomUUID().slice(0, 8)}@Elsewhere.example.net`;
    const res = await admin.request('POST', '/api/district/invitations', { email, role: 'teacher' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ invited: true, email: email.toLowerCase(), role: 'teacher' });
    const message = await mail.waitFor((m) => m.to.includes(email.toLowerCase()));
    expect(message.subject).toContain('Poplar District');
    const link = mail.links(message).find((l) => l.includes('token='));
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;
    expect((await new Browser(h.identity.url).request('GET', `/api/auth/invitations/${token}`)).status).toBe(200);

    const list = await admin.request('GET', '/api/district/invitations');
    expect(list.body.invitations).toEqual([
      expect.objectContaining({
        email: email.toLowerCase(),
        role: 'teacher',
        id: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect((await admin.request('DELETE', `/api/district/invitations/${list.body.invitations[0].id}`)).status).toBe(
      204,
    );
    expect((await new Browser(h.identity.url).request('GET', `/api/auth/invitations/${token}`)).status).toBe(404);
  });

  it('when the admin invites an address that already has an account, then 409 and no invitation', async () => {
    const a = await district('Rowan District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Rowan'));
    const existing = await person(a, 'teacher', 'Tom', 'Rowan');
    const res = await admin.request('POST', '/api/district/invitations', { email: existing.email, role: 'teacher' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('account_exists');
    expect((await admin.request('GET', '/api/district/invitations')).body).toEqual({ invitations: [] });
  });

  it('when the invitation body is invalid, then 400 names the field', async () => {
    const a = await district('Holly District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Holly'));
    const res = await admin.request('POST', '/api/district/invitations', { email: 'nope', role: 'owner' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields).sort()).toEqual(['email', 'role']);
  });

  it('when a pending invitation of the district is revoked, then it is gone; another district’s is 404', async () => {
    const a = await district('Hazel District');
    const b = await district('Larch District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Hazel'));
    const mine = 'a'.repeat(63) + '1';
    const theirs = 'b'.repeat(63) + '2';
    for (const [hash, tenant] of [
      [mine, a.id],
      [theirs, b.id],
    ] as const) {
      await h.db.query(
        `insert into email_tokens (token_hash, purpose, tenant_id, email, payload, expires_at)
         values ($1, 'invite', $2, $3, '{"role":"teacher"}', now() + interval '7 days')`,
        [hash, tenant, `invitee.${hash.slice(0, 4)}@example.net`],
      );
    }
    const list = await admin.request('GET', '/api/district/invitations');
    expect(list.body.invitations).toEqual([
      expect.objectContaining({ id: mine, email: 'invitee.aaaa@example.net', role: 'teacher' }),
    ]);
    expect((await admin.request('DELETE', `/api/district/invitations/${theirs}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/district/invitations/${mine}`)).status).toBe(204);
    expect((await admin.request('GET', '/api/district/invitations')).body.invitations).toEqual([]);
    expect((await h.db.query('select 1 from email_tokens where token_hash = $1', [theirs])).rowCount).toBe(1);
  });
});

describe('notification preferences are published', () => {
  it('when a switch changes, then UserUpdated carries the switches in the same transaction; dark mode alone publishes nothing', async () => {
    const a = await district('Lime District');
    const teacher = await person(a, 'teacher', 'Tom', 'Lime');
    const browser = await signIn(teacher);
    const res = await browser.request('PATCH', '/api/auth/user/preferences', { studentSubmissions: false });
    expect(res.status).toBe(200);
    const events = await updates(teacher.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.notifications).toMatchObject({
      emailNotifications: false,
      assessmentReminders: false,
      studentSubmissions: false,
    });
    await browser.request('PATCH', '/api/auth/user/preferences', { darkMode: true });
    expect(await updates(teacher.id)).toHaveLength(1);
    await browser.request('PATCH', '/api/auth/user/preferences', { emailNotifications: true });
    expect((await updates(teacher.id)).at(-1)!.notifications).toMatchObject({
      emailNotifications: true,
      studentSubmissions: false,
    });
  });
});

describe('GET and PUT /api/district/class-joins (the district join policy)', () => {
  const policyEvents = async (tenantId: string) =>
    (
      await h.db.query<{ payload: Buffer }>(
        `select payload from outbox where type = 'checkpoint.identity.v1.TenantJoinPolicyChanged' and key = $1 order by created_at`,
        [tenantId],
      )
    ).rows.map((r) => fromBinary(TenantJoinPolicyChangedSchema, r.payload));

  it('when the admin keeps students to the district, then it is stored, audited and sent as TenantJoinPolicyChanged', async () => {
    const a = await district('Alder District');
    const me = await person(a, 'admin', 'Ada', 'Alder');
    const admin = await signIn(me);
    expect((await admin.request('GET', '/api/district/class-joins')).body).toEqual({ studentsOwnClassesOnly: false });

    const res = await admin.request('PUT', '/api/district/class-joins', { studentsOwnClassesOnly: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ studentsOwnClassesOnly: true });
    expect((await admin.request('GET', '/api/district/class-joins')).body).toEqual({ studentsOwnClassesOnly: true });
    expect(await policyEvents(a.id)).toEqual([expect.objectContaining({ tenantId: a.id, ownClassesOnly: true })]);
    const audit = await h.db.query(
      `select actor_id, action, resource, details from audit_log where tenant_id = $1 and resource = 'PUT /api/district/class-joins'`,
      [a.id],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: me.id,
        action: 'change',
        resource: 'PUT /api/district/class-joins',
        details: { studentsOwnClassesOnly: true },
      },
    ]);
  });

  it('when a teacher or student asks, or the body is not a boolean, then 403 and 400 naming the field, and nothing changes', async () => {
    const a = await district('Aspen District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Aspen'));
    const teacher = await signIn(await person(a, 'teacher', 'Tom', 'Aspen'));
    const student = await signIn(await person(a, 'student', 'Sam', 'Aspen'));
    for (const b of [teacher, student]) {
      expect((await b.request('GET', '/api/district/class-joins')).status).toBe(403);
      expect((await b.request('PUT', '/api/district/class-joins', { studentsOwnClassesOnly: true })).status).toBe(403);
    }
    const bad = await admin.request('PUT', '/api/district/class-joins', { studentsOwnClassesOnly: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('studentsOwnClassesOnly');
    expect((await admin.request('GET', '/api/district/class-joins')).body).toEqual({ studentsOwnClassesOnly: false });
    expect(await policyEvents(a.id)).toEqual([]);
  });

  it('when the admin sets the retention period (the same path of a setting change), then it is stored, audited and sent too', async () => {
    const a = await district('Rowan Setting District');
    const admin = await signIn(await person(a, 'admin', 'Ada', 'Rowan'));
    const res = await admin.request('PUT', '/api/district/privacy', { retentionDays: 365 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ retentionDays: 365 });
    const sent = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.TenantRetentionChanged' and key = $1`,
      [a.id],
    );
    expect(sent.rows.map((r) => fromBinary(TenantRetentionChangedSchema, r.payload))).toEqual([
      expect.objectContaining({ tenantId: a.id, retentionDays: 365 }),
    ]);
    const audit = await h.db.query(
      `select details from audit_log where tenant_id = $1 and resource = 'PUT /api/district/privacy'`,
      [a.id],
    );
    expect(audit.rows).toEqual([{ details: { retentionDays: 365 } }]);
  });
});
