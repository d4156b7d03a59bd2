// District membership is proven, never inferred from a typed address (see
// docs/security.md "District membership"). An outsider who signs up with a password at a
// district's email domain, and never opens the mailed link, gets no account, cannot sign in, and
// (with an account made elsewhere) cannot list, join or browse the district's classes nor read its
// assessments; a teacher sign-up at the domain posts no class the district's students see. The
// owner of the inbox opens the link and is in the district. Also: an address that has an account
// gets the same answer and a "you already have an account" mail; a district that turned password
// sign-in off answers 403; an invitation from the district creates a verified member once.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  eventually,
  joinDistrict,
  linkMailedTo,
  signUp,
  startBackend,
  type Backend,
  type ClassJson,
} from './helpers.ts';

const DISTRICT = 'demo.checkpoint.school';
const DEMO_PASSWORD = 'demo-password-for-membership';
const PASSWORD = 'correct horse battery';

let backend: Backend;
let db: pg.Client;
let districtTenantId: string;
let districtTeacher: Client;
let districtStudent: Client;
let cls: ClassJson;
let assessmentId: string;

const usersWithEmail = async (email: string) =>
  (await db.query<{ tenant_id: string }>('select tenant_id from identity.users where email = $1', [email])).rows;

/**
 * A second sign-up for an address that has an account (another name, password and role): the
 * same 202 as for a new address, and the "you already have an account" mail that reached it.
 */
async function signUpAgain(email: string, client = new Client(backend.url)) {
  const res = await client.post('/api/auth/simple-signup', {
    firstName: 'Eve',
    lastName: 'Again',
    email,
    password: 'another password',
    role: 'teacher',
  });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ verificationSent: true, email });
  const note = await backend.mail.waitFor(
    (m) => m.to.includes(email) && /already have an account/i.test(m.text),
    15_000,
  );
  expect(note.text).not.toContain('another password');
  return note;
}

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', DEMO_PASSWORD, RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  districtTeacher = await joinDistrict(backend, 'teacher', {
    domain: DISTRICT,
    firstName: 'Dora',
    lastName: 'District',
  });
  districtStudent = await joinDistrict(backend, 'student', { domain: DISTRICT, firstName: 'Dan', lastName: 'Pupil' });
  districtTenantId = districtTeacher.user!.tenantId;
  expect(districtStudent.user!.tenantId).toBe(districtTenantId);
  cls = (await districtTeacher.post('/api/classes', { name: 'District Biology', subject: 'Science', period: '1' }))
    .body;
  const created = await eventually(
    () =>
      districtTeacher.post('/api/assessments', {
        title: 'Cells check',
        contentToAssess: 'Cells are the basic unit of life. The nucleus holds the genetic material of the cell.',
        questionType: 'true_false',
        numberOfQuestions: 1,
        classId: cls.id,
      }),
    (r) => r.status !== 404,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  assessmentId = created.body.id;
  // The district's student is in the class and can read the assessment: the outsider's 404s below
  // are not because nobody can.
  expect((await districtStudent.post(`/api/classes/${cls.id}/join-direct`)).status).toBe(200);
  expect((await districtStudent.get('/api/student/classes')).body.map((m: { classId: string }) => m.classId)).toContain(
    cls.id,
  );
}, 180_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
});

describe('attack 1: a password sign-up at a district domain, link never opened', () => {
  let victimEmail: string;
  let outsider: Client;

  it('when an outsider signs up with a district address, then 202 verificationSent, no account, no session, no sign-in', async () => {
    victimEmail = `victim.${Date.now().toString(36)}@${DISTRICT}`;
    outsider = new Client(backend.url);
    const res = await outsider.post('/api/auth/simple-signup', {
      firstName: 'Eve',
      lastName: 'Outsider',
      email: victimEmail,
      password: PASSWORD,
      role: 'student',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ verificationSent: true, email: victimEmail });
    expect(outsider.cookies.has('cp_session')).toBe(false);
    expect((await outsider.get('/api/auth/user')).status).toBe(401);
    expect(await usersWithEmail(victimEmail)).toEqual([]);

    const login = await new Client(backend.url).post('/api/auth/simple-login', {
      email: victimEmail,
      password: PASSWORD,
    });
    expect(login.status).toBe(401);

    // The link went to the address, not to whoever typed it.
    const { token } = await linkMailedTo(backend.mail, victimEmail);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it("when the outsider uses an account made elsewhere, then the district's classes and assessments stay out of reach", async () => {
    const elsewhere = await signUp(backend.url, 'student', { firstName: 'Eve' });
    expect(elsewhere.user!.tenantId).not.toBe(districtTenantId);
    expect((await elsewhere.get('/api/all-classes')).body).toEqual([]);
    expect((await elsewhere.post(`/api/classes/${cls.id}/join-direct`)).status).toBe(404);
    expect((await elsewhere.get('/api/student/classes')).body).toEqual([]);
    expect((await elsewhere.get(`/api/assessments/${assessmentId}`)).status).toBe(404);
    expect((await elsewhere.get(`/api/assessments/${assessmentId}/questions`)).status).toBe(404);
    expect((await elsewhere.get('/api/student/available-assessments')).body).toEqual([]);
  });

  it("when an outsider signs up as a teacher at the district's domain, then it posts no class the district's students see", async () => {
    const email = `fake.teacher.${Date.now().toString(36)}@${DISTRICT}`;
    const fake = new Client(backend.url);
    const res = await fake.post('/api/auth/simple-signup', {
      firstName: 'Mallory',
      lastName: 'Teacher',
      email,
      password: PASSWORD,
      role: 'teacher',
    });
    expect(res.status).toBe(202);
    expect((await fake.post('/api/classes', { name: 'Free pizza', subject: 'Trap', period: '9' })).status).toBe(401);
    expect(await usersWithEmail(email)).toEqual([]);
    // Its account made elsewhere can post a class, which district students do not see or join.
    const elsewhere = await signUp(backend.url, 'teacher', { firstName: 'Mallory' });
    const trap = (await elsewhere.post('/api/classes', { name: 'Free pizza', subject: 'Trap', period: '9' })).body;
    expect(trap.id).toEqual(expect.any(String));
    const browse = (await districtStudent.get('/api/all-classes')).body.map((c: ClassJson) => c.id);
    expect(browse).not.toContain(trap.id);
    expect((await districtStudent.post(`/api/classes/${trap.id}/join-direct`)).status).toBe(404);
  });

  it('when the owner of the inbox opens the link, then the account is made in the district, verified and signed in', async () => {
    const { token } = await linkMailedTo(backend.mail, victimEmail);
    const owner = new Client(backend.url);
    const opened = await owner.post('/api/auth/email/verify', { token });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body.user).toMatchObject({ email: victimEmail, role: 'student', tenantId: districtTenantId });
    const me = await owner.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: victimEmail,
      tenantId: districtTenantId,
      accountType: 'district',
      emailVerified: true,
    });
    expect((await owner.get('/api/all-classes')).body.map((c: ClassJson) => c.id)).toContain(cls.id);
    // The link works once.
    expect((await new Client(backend.url).post('/api/auth/email/verify', { token })).status).toBe(400);
    // And the password typed at sign-up is the account's.
    const login = await new Client(backend.url).post('/api/auth/simple-login', {
      email: victimEmail,
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
  });
});

describe('sign-up at a district domain: the other answers', () => {
  it('when the address has an account already, then the same 202 and a "you already have an account" mail, and nothing changes', async () => {
    const email = districtStudent.user!.email;
    const before = backend.mail.messages().length;
    const mail = await signUpAgain(email);
    expect(mail.text).toMatch(/reset your password/i);
    expect(backend.mail.messages().length).toBeGreaterThan(before);
    expect(await usersWithEmail(email)).toHaveLength(1);
    const me = await districtStudent.get('/api/auth/user');
    expect(me.body).toMatchObject({ role: 'student', lastName: 'Pupil' });
  });

  it('when the district turned password sign-in off, then 403 password_sign_in_disabled naming the district', async () => {
    const domain = `sso-only-${Date.now().toString(36)}.example.org`;
    await db.query(
      `insert into identity.tenants (id, name, kind, email_domains, password_sign_in)
       values (gen_random_uuid(), 'Northwind Schools', 'district', $1, false)`,
      [[domain]],
    );
    const email = `kid@${domain}`;
    const res = await new Client(backend.url).post('/api/auth/simple-signup', {
      firstName: 'Kid',
      lastName: 'Northwind',
      email,
      password: PASSWORD,
      role: 'student',
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'password_sign_in_disabled',
      message:
        'Northwind Schools signs in with its own provider. Use “Continue with Northwind Schools” on the sign-in page.',
    });
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('when the OpenAPI document describes the sign-up, then it has only the 202 link answer and the 400, 403 and 429', async () => {
    const doc = (await new Client(backend.url).get('/api/openapi.json')).body;
    const responses = doc.paths['/api/auth/simple-signup'].post.responses;
    expect(Object.keys(responses).sort()).toEqual(expect.arrayContaining(['202', '400', '403', '429']));
    // No answer tells a new address from a registered one: no 201 account, no 409 email_taken.
    expect(Object.keys(responses)).not.toContain('201');
    expect(Object.keys(responses)).not.toContain('409');
    expect(JSON.stringify(responses['202'])).toContain('VerificationSent');
    expect(doc.components.schemas.VerificationSent.required).toEqual(['verificationSent', 'email']);
  });
});

describe('sign-up at an address of no district', () => {
  it('when the address is new, then 202 and no account or session until the mailed link is opened, which makes a verified account in a new individual tenant', async () => {
    const email = `solo.${Date.now().toString(36)}@solo-mail.example.com`;
    const client = new Client(backend.url);
    const res = await client.post('/api/auth/simple-signup', {
      firstName: 'Sol',
      lastName: 'Owner',
      email,
      password: PASSWORD,
      role: 'teacher',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ verificationSent: true, email });
    expect(client.cookies.has('cp_session')).toBe(false);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect(await usersWithEmail(email)).toEqual([]);

    const { token } = await linkMailedTo(backend.mail, email);
    const opened = await client.post('/api/auth/email/verify', { token });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(opened.body).toMatchObject({ signedIn: true, user: { email, role: 'teacher' } });
    expect(opened.body.user.tenantId).not.toBe(districtTenantId);
    expect((await client.get('/api/auth/user')).body).toMatchObject({
      email,
      accountType: 'individual',
      emailVerified: true,
    });
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it('when the address has an account already, then the same 202 and a "you already have an account" mail with no sign-up link, and nothing changes', async () => {
    const existing = await signUp(backend.url, 'teacher');
    const email = existing.user!.email;
    const client = new Client(backend.url);
    const note = await signUpAgain(email, client);
    expect(client.cookies.has('cp_session')).toBe(false);
    expect(note.subject).toBe('You already have a Checkpoint account');
    expect(backend.mail.links(note).some((link) => new URL(link).pathname === '/verify-email')).toBe(false);
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect((await existing.get('/api/auth/user')).body).toMatchObject({
      role: 'teacher',
      lastName: existing.user!.lastName,
    });
  });
});

describe('invitation acceptance', () => {
  /** An invitation as the district's admin sends it (POST /api/district/invitations): its link's token. */
  async function invite(email: string, role: 'teacher' | 'student' | 'admin'): Promise<string> {
    const admin = new Client(backend.url);
    expect(
      (await admin.post('/api/auth/simple-login', { email: `admin@${DISTRICT}`, password: DEMO_PASSWORD })).status,
    ).toBe(200);
    const res = await admin.post('/api/district/invitations', { email, role });
    expect([200, 201, 202], JSON.stringify(res.body)).toContain(res.status);
    return (await linkMailedTo(backend.mail, email, '/accept-invitation')).token;
  }

  it('when an invited teacher opens the link, then the page reads the invitation, acceptance makes a verified member once', async () => {
    const email = `invited.${Date.now().toString(36)}@elsewhere-mail.example.com`;
    const token = await invite(email, 'teacher');
    const anon = new Client(backend.url);
    const view = await anon.get(`/api/auth/invitations/${token}`);
    expect(view.status).toBe(200);
    expect(view.body).toEqual({ email, districtName: 'Demo District', role: 'teacher' });
    // Reading it does not use it.
    expect((await anon.get(`/api/auth/invitations/${token}`)).status).toBe(200);

    const invited = new Client(backend.url);
    const accepted = await invited.post('/api/auth/invitations/accept', {
      token,
      firstName: 'Ivy',
      lastName: 'Invited',
      password: PASSWORD,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.user).toMatchObject({ email, role: 'teacher', tenantId: districtTenantId });
    const me = await invited.get('/api/auth/user');
    expect(me.body).toMatchObject({ email, tenantId: districtTenantId, emailVerified: true });

    expect((await anon.get(`/api/auth/invitations/${token}`)).status).toBe(404);
    const again = await new Client(backend.url).post('/api/auth/invitations/accept', {
      token,
      firstName: 'Ivy',
      lastName: 'Twice',
      password: PASSWORD,
    });
    expect(again.status).toBe(404);
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  /**
   * An invitation row as issueInvitation writes it (the admin side refuses to invite a registered
   * address, so this case is made directly): the token's SHA-256 only, 7 days.
   */
  async function invitationRow(email: string, role: string, validFor = '7 days'): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `insert into identity.email_tokens (token_hash, purpose, tenant_id, email, payload, expires_at)
       values ($1, 'invite', $2, $3, $4, now() + $5::interval)`,
      [createHash('sha256').update(token).digest('hex'), districtTenantId, email, JSON.stringify({ role }), validFor],
    );
    return token;
  }

  it('when the invited address has an account already, then 409 and the invitation stays usable', async () => {
    const existing = await signUp(backend.url, 'teacher');
    const token = await invitationRow(existing.user!.email, 'teacher');
    const res = await new Client(backend.url).post('/api/auth/invitations/accept', {
      token,
      firstName: 'Tess',
      lastName: 'Taken',
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^An account with this email already exists\. Sign in/);
    expect((await new Client(backend.url).get(`/api/auth/invitations/${token}`)).status).toBe(200);
  });

  it('when the same invitation is accepted twice at once, then exactly one account is made', async () => {
    const email = `race.${Date.now().toString(36)}@elsewhere-mail.example.com`;
    const token = await invitationRow(email, 'student');
    const replies = await Promise.all(
      ['One', 'Two', 'Three'].map((lastName) =>
        new Client(backend.url).post('/api/auth/invitations/accept', {
          token,
          firstName: 'Rae',
          lastName,
          password: PASSWORD,
        }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const s of statuses.filter((s) => s !== 201)) expect([404, 409]).toContain(s);
    expect(await usersWithEmail(email)).toEqual([{ tenant_id: districtTenantId }]);
    const made = replies.find((r) => r.status === 201)!;
    expect(made.body.user).toMatchObject({ email, role: 'student', tenantId: districtTenantId });
  });

  it('when the invitation has expired, then 404 for reading and accepting, and no account is made', async () => {
    const email = `late.${Date.now().toString(36)}@elsewhere-mail.example.com`;
    const token = await invitationRow(email, 'teacher', '-1 minute');
    const anon = new Client(backend.url);
    expect((await anon.get(`/api/auth/invitations/${token}`)).status).toBe(404);
    const res = await anon.post('/api/auth/invitations/accept', {
      token,
      firstName: 'Late',
      lastName: 'Comer',
      password: PASSWORD,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('expired or was already used');
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('when the token is unknown, then 404 for reading and accepting, and a bad token is 400', async () => {
    const anon = new Client(backend.url);
    expect((await anon.get('/api/auth/invitations/bm90LWEtcmVhbC10b2tlbg')).status).toBe(404);
    const res = await anon.post('/api/auth/invitations/accept', {
      token: 'bm90LWEtcmVhbC10b2tlbg',
      firstName: 'No',
      lastName: 'Body',
      password: PASSWORD,
    });
    expect(res.status).toBe(404);
    const bad = await anon.post('/api/auth/invitations/accept', {
      token: '',
      firstName: '',
      lastName: 'X',
      password: '1',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(expect.arrayContaining(['token', 'firstName', 'password']));
  });
});
