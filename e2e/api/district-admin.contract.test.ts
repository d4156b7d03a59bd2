// District administration and notifications through the gateway (all-in-one): a removed account is
// refused at once on every service, an invitation is mailed and accepted into the district, and
// the Settings switches lead to one digest mail listing the class's news.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDigestPass } from '../../services/analytics/src/data-access/digest.repository.ts';
import { Client, eventually, joinDistrict, linkMailedTo, startBackend, type Backend } from './helpers.ts';

const DISTRICT = 'demo.checkpoint.school';
const DEMO_PASSWORD = 'demo-password-for-tests';
let backend: Backend;
let admin: Client;
let analytics: pg.Pool;

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', DEMO_PASSWORD, RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  admin = new Client(backend.url);
  const res = await admin.post('/api/auth/simple-login', { email: `admin@${DISTRICT}`, password: DEMO_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  admin.user = res.body.user;
  analytics = new pg.Pool({ connectionString: backend.postgres.url, options: '-c search_path=analytics', max: 2 });
  analytics.on('error', () => {});
}, 180_000);

afterAll(async () => {
  await analytics?.end();
  await backend?.stop();
});

describe('removing an account', () => {
  it('when the admin removes a teacher, then the teacher’s session is refused by every service at once and sign-in fails', async () => {
    const teacher = await joinDistrict(backend, 'teacher', { domain: DISTRICT });
    expect((await teacher.get('/api/classes')).status).toBe(200);
    expect((await admin.del(`/api/district/users/${teacher.user!.id}`)).status).toBe(204);
    // The gateway learns of the revoked session within a moment (held request at identity).
    await eventually(
      () => teacher.get('/api/classes'),
      (r) => r.status === 401,
      5_000,
    );
    expect((await teacher.get('/api/dashboard/usage')).status).toBe(401);
    const again = await new Client(backend.url).post('/api/auth/simple-login', {
      email: teacher.user!.email,
      password: 'correct horse battery',
    });
    expect(again.status).toBe(401);
    const list = await admin.get(`/api/district/users?search=${encodeURIComponent(teacher.user!.email)}`);
    expect(list.body.users).toEqual([expect.objectContaining({ id: teacher.user!.id, disabled: true })]);
  });
});

describe('invitations', () => {
  it('when the admin invites an address of another domain and it is accepted, then the account is in the district, verified, from an invitation', async () => {
    const email = `invited.${Date.now().toString(36)}@elsewhere.example.net`;
    const sent = await admin.post('/api/district/invitations', { email, role: 'teacher' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const { token } = await linkMailedTo(backend.mail, email, '/accept-invitation');
    const invitee = new Client(backend.url);
    const accepted = await invitee.post('/api/auth/invitations/accept', {
      token,
      firstName: 'Ivy',
      lastName: 'Invited',
      password: 'correct horse battery',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.user).toMatchObject({ role: 'teacher', tenantId: admin.user!.tenantId });
    const list = await admin.get(`/api/district/users?search=${encodeURIComponent(email)}`);
    expect(list.body.users).toEqual([
      expect.objectContaining({ email, emailVerified: true, source: 'invitation', role: 'teacher' }),
    ]);
    expect((await admin.get('/api/district/invitations')).body.invitations).not.toContainEqual(
      expect.objectContaining({ email }),
    );
  });
});

describe('notification digest', () => {
  it('when a teacher has Email Notifications on and a student joins and submits, then one digest lists the submission and the joiner', async () => {
    const teacher = await joinDistrict(backend, 'teacher', { domain: DISTRICT, firstName: 'Nora' });
    expect((await teacher.request('PATCH', '/api/auth/user/preferences', { emailNotifications: true })).status).toBe(
      200,
    );
    const cls = (await teacher.post('/api/classes', { name: 'Digest class', subject: 'Math', period: '2' })).body;
    const created = await eventually(
      () =>
        teacher.post('/api/assessments', {
          title: 'Digest check',
          contentToAssess: 'Fractions name parts of a whole. The denominator tells how many equal parts there are.',
          questionType: 'true_false',
          numberOfQuestions: 1,
          classId: cls.id,
        }),
      (r) => r.status !== 404,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const assessmentId = created.body.id as string;
    await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}`),
      (r) => r.body.generationStatus !== 'generating',
      30_000,
    );
    const student = await joinDistrict(backend, 'student', { domain: DISTRICT, firstName: 'Otto', lastName: 'Digest' });
    expect((await student.post('/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
    expect((await teacher.post(`/api/assessments/${assessmentId}/assign`)).status).toBe(200);
    await eventually(
      () => student.get('/api/student/available-assessments'),
      (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === assessmentId),
    );
    expect((await student.post('/api/results', { assessmentId })).status).toBe(201);
    // The submission reached analytics and was noted for the teacher.
    await eventually(
      () => analytics.query(`select kind from digest_items where user_id = $1`, [teacher.user!.id]).then((r) => r.rows),
      (rows) => rows.some((r) => r.kind === 'submission') && rows.some((r) => r.kind === 'joined'),
    );
    await runDigestPass(analytics, { windowMs: 0, baseUrl: backend.url });
    const mail = await backend.mail.waitFor(
      (m) => m.to.includes(teacher.user!.email.toLowerCase()) && /Checkpoint: /.test(m.subject),
    );
    expect(mail.subject).toBe('Checkpoint: 1 new submission, 1 student joined');
    expect(mail.text).toContain('- Otto Digest — Digest check (Digest class): 0% (Below Standard)');
    expect(mail.text).toContain('- Otto Digest joined Digest class');
    await runDigestPass(analytics, { windowMs: 0, baseUrl: backend.url });
    await new Promise((r) => setTimeout(r, 500));
    expect(
      backend.mail
        .messages()
        .filter((m) => m.to.includes(teacher.user!.email.toLowerCase()) && /Checkpoint: /.test(m.subject)),
    ).toHaveLength(1);
  });
});
