// A district's OneRoster import end to end (all-in-one): the admin uploads a package through the
// gateway and applies it; a rostered student sets a password with the reset link (the district
// vouched for the address) and sees the class the roster put them in; the rostered teacher owns it.
import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import { Client, eventually, joinDistrict, linkMailedTo, startBackend, type Backend, type Reply } from './helpers.ts';

const DOMAIN = `roster-${randomUUID().slice(0, 8)}.example.org`;
const PASSWORD = 'correct horse battery';
let backend: Backend;
let admin: Client;

function ok(res: Reply, status: number, what: string) {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The upload is the zip itself (not JSON), with the session's cookies and CSRF pair. */
async function upload(client: Client, body: Uint8Array): Promise<Reply> {
  if (!client.cookies.has('cp_csrf')) await client.get('/api/auth/user');
  const res = await fetch(new URL('/api/district/roster/imports', client.baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/zip',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
      'x-csrf-token': client.cookies.get('cp_csrf') ?? '',
      origin: client.baseUrl,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

function rosterZip() {
  const csv = (lines: string[]) => strToU8(lines.join('\r\n'));
  return zipSync({
    'manifest.csv': csv([
      'propertyName,value',
      'manifest.version,1.0',
      'oneroster.version,1.2',
      'file.users,bulk',
      'file.roles,bulk',
      'file.classes,bulk',
      'file.enrollments,bulk',
      'file.orgs,absent',
      'source.systemName,Test SIS',
    ]),
    'users.csv': csv([
      'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,password',
      `t-100,,,true,rtaylor,,Rita,Taylor,,,rita.taylor@${DOMAIN},ignored`,
      `s-200,,,true,rstone,,Remy,Stone,,,Remy.Stone@${DOMAIN},ignored`,
    ]),
    'roles.csv': csv([
      'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
      'ro-1,,,t-100,primary,teacher,,,org-1,',
      'ro-2,,,s-200,primary,student,,,org-1,',
    ]),
    'classes.csv': csv([
      'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods',
      'cl-1,,,Roster Algebra,09,co-1,ALG,scheduled,,org-1,term-1,Math,,4',
    ]),
    'enrollments.csv': csv([
      'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
      'en-1,,,cl-1,org-1,t-100,teacher,true,,',
      'en-2,,,cl-1,org-1,s-200,student,false,,',
    ]),
  });
}

async function setPasswordByMail(email: string): Promise<Client> {
  const c = new Client(backend.url);
  ok(await c.post('/api/auth/password/forgot', { email }), 202, 'forgot password');
  const { token } = await linkMailedTo(backend.mail, email, '/reset-password');
  ok(await c.post('/api/auth/password/reset', { token, password: PASSWORD }), 200, 'reset password');
  c.user = ok(await c.post('/api/auth/simple-login', { email, password: PASSWORD }), 200, `sign-in ${email}`).user;
  return c;
}

beforeAll(async () => {
  backend = await startBackend();
  const db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  await db.query(
    `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), 'Roster District', 'district', $1)`,
    [[DOMAIN]],
  );
  await db.end();
  const first = await joinDistrict(backend, 'teacher', { domain: DOMAIN, firstName: 'Ada', lastName: 'Admin' });
  const lines: string[] = [];
  const code = await runMakeAdmin(
    [first.user!.email],
    { DATABASE_URL: backend.postgres.url },
    { log: (l) => lines.push(l), error: (l) => lines.push(l) },
  );
  if (code !== 0) throw new Error(`make-admin: ${lines.join('\n')}`);
  admin = new Client(backend.url);
  admin.user = ok(
    await admin.post('/api/auth/simple-login', { email: first.user!.email, password: PASSWORD }),
    200,
    'admin sign-in',
  ).user;
}, 180_000);
afterAll(async () => {
  await backend?.stop();
}, 60_000);

describe('OneRoster import through the gateway', () => {
  it('when the admin imports a roster, then a rostered student sets a password by mail, signs in and sees the class, which the rostered teacher owns', async () => {
    const preview = ok(await upload(admin, rosterZip()), 201, 'upload');
    expect(preview.counts.users).toMatchObject({ new: 2, invalid: 0 });
    expect(preview.errors).toEqual([]);
    ok(await admin.post(`/api/district/roster/imports/${preview.id}/apply`), 202, 'apply');
    const done = await eventually(
      () => admin.get(`/api/district/roster/imports/${preview.id}`),
      (r) => r.body?.status === 'done' || r.body?.status === 'failed',
      30_000,
    );
    expect(done.body).toMatchObject({ status: 'done', progress: { done: 3, total: 3 } });

    // Each created account is welcomed by mail, with a link that sets its first password.
    const remy = `remy.stone@${DOMAIN}`;
    const welcome = await backend.mail.waitFor((m) => m.to.includes(remy) && /^Welcome to /.test(m.subject), 15_000);
    expect(welcome.subject).toBe('Welcome to Roster District on Checkpoint');
    expect(welcome.text).toContain('Roster District created your Checkpoint account (remy.stone@');
    const link = new URL(backend.mail.links(welcome).find((l) => new URL(l).pathname === '/reset-password')!);
    const student = new Client(backend.url);
    ok(
      await student.post('/api/auth/password/reset', { token: link.searchParams.get('token'), password: PASSWORD }),
      200,
      'welcome link',
    );
    student.user = ok(
      await student.post('/api/auth/simple-login', { email: remy, password: PASSWORD }),
      200,
      'sign-in',
    ).user;
    // The link is used up.
    expect(
      (
        await new Client(backend.url).post('/api/auth/password/reset', {
          token: link.searchParams.get('token'),
          password: 'another pass 123',
        })
      ).status,
    ).toBe(400);
    expect(student.user).toMatchObject({ role: 'student', firstName: 'Remy', tenantId: admin.user!.tenantId });
    const classes = await eventually(
      () => student.get('/api/student/classes'),
      (r) => r.status === 200 && r.body.length === 1,
      30_000,
    );
    expect(classes.body[0].class).toMatchObject({ name: 'Roster Algebra', subject: 'Math', period: '4' });

    const teacher = await setPasswordByMail(`rita.taylor@${DOMAIN}`);
    const own = ok(await teacher.get('/api/classes'), 200, 'teacher classes');
    expect(own.map((c: { name: string }) => c.name)).toEqual(['Roster Algebra']);

    // The same package again: nothing to apply.
    const again = ok(await upload(admin, rosterZip()), 201, 'upload again');
    expect(again.progress.total).toBe(0);
    expect(again.counts.users).toMatchObject({ new: 0, updated: 0, unchanged: 2 });
  }, 120_000);

  it('when a teacher uploads a roster, then 403; a JSON body is not a roster (415)', async () => {
    const teacher = await joinDistrict(backend, 'teacher', { domain: DOMAIN });
    expect((await upload(teacher, rosterZip())).status).toBe(403);
    expect((await admin.post('/api/district/roster/imports', { users: [] })).status).toBe(415);
  }, 60_000);
});
