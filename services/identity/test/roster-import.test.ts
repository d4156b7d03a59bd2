// OneRoster imports against a real Postgres: upload → preview → apply in the background; the same
// file again changes nothing; a delta disables users, removes enrollments and archives classes; an
// email of another tenant's account is an error row, never a takeover; a file is held to the rules
// of the district's admin pages (never the importer's own account, never a student made staff,
// never the last active admin, checked again when applying, then for the admin applying it), a
// user whose role it changes is signed out at once, the class syncs leave out the users skipped
// when applying, and a batch does not hold up sign-ups in the district.
import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, RosterClassSyncedSchema, UserUpdatedSchema } from '@checkpoint/events';
import type { Role } from '@checkpoint/service-kit';
import { gatewayHeaders } from '@checkpoint/testkit';
import { createPrisma } from '../src/data-access/prisma.ts';
import { rosterRepository } from '../src/data-access/roster.repository.ts';
import { recheckPlanned } from '../src/domain/roster/plan.ts';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

const BASE = '/api/district/roster/imports';

interface Actor {
  userId: string;
  tenantId: string;
  role: Role;
}

/** Bo, a second admin of the district (bo@domain). */
async function secondAdmin(d: { tenantId: string; domain: string }): Promise<{ otherId: string; other: Actor }> {
  const otherId = randomUUID();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Bo', 'Admin', 'admin')`,
    [otherId, d.tenantId, `bo@${d.domain}`],
  );
  return { otherId, other: { userId: otherId, tenantId: d.tenantId, role: 'admin' } };
}

async function district(): Promise<{ tenantId: string; domain: string; admin: Actor }> {
  const tenantId = randomUUID();
  const domain = `d-${tenantId.slice(0, 8)}.example.org`;
  await h.db.query(
    `insert into tenants (id, name, kind, email_domains) values ($1, 'Roster District', 'district', $2)`,
    [tenantId, [domain]],
  );
  const userId = randomUUID();
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Ada', 'Admin', 'admin')`,
    [userId, tenantId, `admin@${domain}`],
  );
  return { tenantId, domain, admin: { userId, tenantId, role: 'admin' } };
}

async function call(who: Actor, method: string, path: string, body?: Uint8Array, type = 'application/zip') {
  const headers: Record<string, string> = await gatewayHeaders('identity', who);
  if (body) headers['content-type'] = type;
  const res = await fetch(new URL(path, h.identity.url), { method, headers, ...(body ? { body } : {}) });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // CSV and other text answers stay text.
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies under test
  return { status: res.status, body: json as any, headers: res.headers };
}

const USERS = 'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,email,password';
const ROLES = 'sourcedId,status,dateLastModified,userSourcedId,roleType,role,orgSourcedId';
const CLASSES = 'sourcedId,status,dateLastModified,title,courseSourcedId,schoolSourcedId,subjects,periods';
const ENROLL = 'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary';

function pkg(
  mode: 'bulk' | 'delta',
  files: { users?: string[]; roles?: string[]; classes?: string[]; enrollments?: string[] },
) {
  const manifest = [
    'propertyName,value',
    'manifest.version,1.0',
    'oneroster.version,1.2',
    ...(['users', 'roles', 'classes', 'enrollments'] as const).map((f) => `file.${f},${files[f] ? mode : 'absent'}`),
  ];
  const entries: Record<string, Uint8Array> = { 'manifest.csv': strToU8(manifest.join('\n')) };
  const headers = { users: USERS, roles: ROLES, classes: CLASSES, enrollments: ENROLL };
  for (const f of ['users', 'roles', 'classes', 'enrollments'] as const)
    if (files[f]) entries[`${f}.csv`] = strToU8([headers[f], ...files[f]!].join('\r\n'));
  return zipSync(entries);
}

function roster(domain: string, classRow = 'c1,,,Algebra 1,course1,org,Math,3') {
  return pkg('bulk', {
    users: [
      `t1,,,true,tina,,Tina,Teach,Tina@${domain.toUpperCase()},secret`,
      `s1,,,true,sam,,Sam,Stu,sam@${domain},secret`,
      `s2,,,true,sue,,Sue,Stu,,`,
    ],
    roles: ['r1,,,t1,primary,teacher,org', 'r2,,,s1,primary,student,org', 'r3,,,s2,primary,student,org'],
    classes: [classRow],
    enrollments: ['e1,,,c1,org,t1,teacher,true', 'e2,,,c1,org,s1,student,false', 'e3,,,c1,org,s2,student,false'],
  });
}

async function applyAndWait(who: Actor, id: string) {
  const started = await call(who, 'POST', `${BASE}/${id}/apply`);
  expect(started.status).toBe(202);
  for (let i = 0; i < 200; i++) {
    const res = await call(who, 'GET', `${BASE}/${id}`);
    if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('import did not finish');
}

const outboxCount = async (type: string, tenantId: string) =>
  (
    await h.db.query<{ n: number }>(`select count(*)::int as n from outbox where type = $1 and tenant_id = $2`, [
      `checkpoint.identity.v1.${type}`,
      tenantId,
    ])
  ).rows[0]!.n;

async function syncs(tenantId: string) {
  const { rows } = await h.db.query<{ payload: Buffer }>(
    `select payload from outbox where type = 'checkpoint.identity.v1.RosterClassSynced' and tenant_id = $1 order by created_at`,
    [tenantId],
  );
  return rows.map((r) => fromBinary(RosterClassSyncedSchema, r.payload));
}

describe('OneRoster import', () => {
  it('when an import creates accounts, then each with an address is welcomed by mail (a password link, or the district’s own sign-in), none to a placeholder, and the apply is in the audit log', async () => {
    const mailTo = async (to: string) =>
      (
        await h.db.query<{ subject: string; text: string }>('select subject, text from outgoing_mail where "to" = $1', [
          to,
        ])
      ).rows;
    const d = await district();
    const preview = await call(d.admin, 'POST', BASE, roster(d.domain));
    await applyAndWait(d.admin, preview.body.id);
    for (const who of ['sam', 'tina']) {
      const [mail, ...more] = await mailTo(`${who}@${d.domain}`);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe('Welcome to Roster District on Checkpoint');
      expect(mail!.text).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]+/);
    }
    const placeholders = await h.db.query(
      `select count(*)::int as n from outgoing_mail where "to" like '%@roster.invalid'`,
    );
    expect(placeholders.rows[0].n).toBe(0);
    const audit = await h.db.query(`select actor_id, event, details from audit_log where tenant_id = $1`, [d.tenantId]);
    expect(audit.rows).toEqual([
      {
        actor_id: d.admin.userId,
        event: 'roster.applied',
        details: expect.objectContaining({ importId: preview.body.id, counts: expect.objectContaining({}) }),
      },
    ]);
    expect(audit.rows[0].details.counts.users).toMatchObject({ rows: 3, new: 3 });

    // A district that signs in with its own provider: the mail says so, with no password link.
    const sso = await district();
    await h.db.query('update tenants set password_sign_in = false where id = $1', [sso.tenantId]);
    await applyAndWait(sso.admin, (await call(sso.admin, 'POST', BASE, roster(sso.domain))).body.id);
    const [mail] = await mailTo(`sam@${sso.domain}`);
    expect(mail!.text).toContain('“Continue with Roster District”');
    expect(mail!.text).not.toContain('token=');
  });

  it('when an admin uploads a roster and applies it, then the users are created verified in the district, mapped, published, and the class is synced', async () => {
    const d = await district();
    const preview = await call(d.admin, 'POST', BASE, roster(d.domain));
    expect(preview.status).toBe(201);
    expect(preview.body).toMatchObject({ status: 'previewed', mode: 'bulk', errorCount: 0, errors: [] });
    expect(preview.body.counts.users).toMatchObject({ rows: 3, new: 3, invalid: 0 });
    expect(preview.body.counts.enrollments).toMatchObject({ new: 3 });
    // Nothing applied by the preview.
    expect(await outboxCount('UserRegistered', d.tenantId)).toBe(0);

    const done = await applyAndWait(d.admin, preview.body.id);
    expect(done).toMatchObject({ status: 'done', progress: { done: 4, total: 4 } });
    const { rows } = await h.db.query(
      `select u.email, u.role, u.tenant_id, u.email_verified_at is not null as verified, r.source_id
         from users u join roster_users r on r.user_id = u.id where r.tenant_id = $1 order by r.source_id`,
      [d.tenantId],
    );
    expect(rows).toEqual([
      expect.objectContaining({ source_id: 's1', email: `sam@${d.domain}`, role: 'student', verified: true }),
      expect.objectContaining({ source_id: 's2', email: expect.stringMatching(/@roster\.invalid$/), role: 'student' }),
      expect.objectContaining({ source_id: 't1', email: `tina@${d.domain}`, role: 'teacher', tenant_id: d.tenantId }),
    ]);
    // Passwords in the file are never imported.
    const creds = await h.db.query(
      `select count(*)::int as n from credentials c join roster_users r on r.user_id = c.user_id where r.tenant_id = $1`,
      [d.tenantId],
    );
    expect(creds.rows[0].n).toBe(0);
    expect(await outboxCount('UserRegistered', d.tenantId)).toBe(3);
    const [sync] = await syncs(d.tenantId);
    const teacherId = rows.find((r) => r.source_id === 't1')!;
    expect(sync).toMatchObject({ sourceId: 'c1', title: 'Algebra 1', subject: 'Math', period: '3', active: true });
    // The class's school (schoolSourcedId; no orgs.csv, so no name) travels with it.
    expect(sync).toMatchObject({ schoolId: 'org', schoolName: '', grades: [] });
    expect(sync!.teacherUserIds).toHaveLength(1);
    expect(sync!.studentUserIds).toHaveLength(2);
    expect(teacherId).toBeTruthy();

    // Applying it again is refused (it is done); importing the same file again changes nothing.
    expect((await call(d.admin, 'POST', `${BASE}/${preview.body.id}/apply`)).status).toBe(409);
    const again = await call(d.admin, 'POST', BASE, roster(d.domain));
    expect(again.body.counts.users).toMatchObject({ new: 0, updated: 0, unchanged: 3 });
    expect(again.body.counts.classes).toMatchObject({ new: 0, updated: 0, unchanged: 1 });
    expect(again.body.progress.total).toBe(0);
    const doneAgain = await applyAndWait(d.admin, again.body.id);
    expect(doneAgain.status).toBe('done');
    expect(await outboxCount('UserRegistered', d.tenantId)).toBe(3);
    expect(await outboxCount('UserUpdated', d.tenantId)).toBe(0);
    expect(await syncs(d.tenantId)).toHaveLength(1);

    // The class moves to another school, nothing else changes: it is sent again with the new one.
    const move = await call(d.admin, 'POST', BASE, roster(d.domain, 'c1,,,Algebra 1,course1,org2,Math,3'));
    expect(move.body.counts.classes).toMatchObject({ updated: 1, unchanged: 0 });
    expect((await applyAndWait(d.admin, move.body.id)).status).toBe('done');
    expect((await syncs(d.tenantId)).at(-1)).toMatchObject({ sourceId: 'c1', schoolId: 'org2' });
  });

  it('when a delta marks a user, an enrollment and a class tobedeleted, then the user is disabled, the class loses the student, and the class is archived', async () => {
    const d = await district();
    const first = await call(d.admin, 'POST', BASE, roster(d.domain));
    await applyAndWait(d.admin, first.body.id);
    const when = '2026-11-20T08:00:00Z';
    const delta = pkg('delta', {
      users: [`s2,tobedeleted,${when},true,sue,,Sue,Stu,,`],
      classes: [`c1,tobedeleted,${when},Algebra 1,course1,org,Math,3`],
    });
    const preview = await call(d.admin, 'POST', BASE, delta);
    expect(preview.status).toBe(201);
    expect(preview.body.mode).toBe('delta');
    expect(preview.body.counts.users).toMatchObject({ deleted: 1 });
    expect(preview.body.counts.classes).toMatchObject({ deleted: 1 });
    expect((await applyAndWait(d.admin, preview.body.id)).status).toBe('done');
    const s2 = await h.db.query(
      `select u.id, u.disabled_at from users u join roster_users r on r.user_id = u.id where r.tenant_id = $1 and r.source_id = 's2'`,
      [d.tenantId],
    );
    expect(s2.rows[0].disabled_at).not.toBeNull();
    const updated = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.UserUpdated' and key = $1`,
      [s2.rows[0].id],
    );
    expect(fromBinary(UserUpdatedSchema, updated.rows[0]!.payload).disabled).toBe(true);
    const last = (await syncs(d.tenantId)).at(-1)!;
    expect(last).toMatchObject({ sourceId: 'c1', active: false });

    // A delta enrollment removal on an active class: a new class, then its student removed.
    const add = pkg('delta', {
      classes: [`c2,active,${when},Biology,course2,org,Science,1`],
      enrollments: [`e9,active,${when},c2,org,t1,teacher,true`, `e10,active,${when},c2,org,s1,student,false`],
    });
    await applyAndWait(d.admin, (await call(d.admin, 'POST', BASE, add)).body.id);
    const remove = pkg('delta', { enrollments: [`e10,tobedeleted,${when},c2,org,s1,student,false`] });
    const removal = await call(d.admin, 'POST', BASE, remove);
    expect(removal.body.counts.enrollments).toMatchObject({ deleted: 1 });
    await applyAndWait(d.admin, removal.body.id);
    const c2 = (await syncs(d.tenantId)).filter((s) => s.sourceId === 'c2');
    expect(c2.map((s) => s.studentUserIds.length)).toEqual([1, 0]);
  });

  it('when a row’s email belongs to an account of another tenant, then it is an error row, the account is untouched, and its enrollment is skipped', async () => {
    const d = await district();
    const elsewhere = randomUUID();
    const otherUser = randomUUID();
    await h.db.query(`insert into tenants (id, name, kind) values ($1, 'Own space', 'individual')`, [elsewhere]);
    await h.db.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Sam', 'Private', 'teacher')`,
      [otherUser, elsewhere, `sam@${d.domain}`],
    );
    const preview = await call(d.admin, 'POST', BASE, roster(d.domain));
    expect(preview.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'users.csv', line: 3, sourcedId: 's1', field: 'email' }),
        expect.objectContaining({ file: 'enrollments.csv', line: 3, sourcedId: 'e2' }),
      ]),
    );
    await applyAndWait(d.admin, preview.body.id);
    const { rows } = await h.db.query(`select tenant_id, last_name from users where id = $1`, [otherUser]);
    expect(rows[0]).toEqual({ tenant_id: elsewhere, last_name: 'Private' });
    const mapped = await h.db.query(`select count(*)::int as n from roster_users where user_id = $1`, [otherUser]);
    expect(mapped.rows[0].n).toBe(0);

    const csv = await call(d.admin, 'GET', `${BASE}/${preview.body.id}/errors.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.body).toMatch(/^file,line,sourcedId,field,message\r\nusers\.csv,3,s1,email,/);
  });

  it('when the package is broken, then 400 names the problem; a teacher gets 403; another district gets 404', async () => {
    const d = await district();
    const bad = zipSync({ 'manifest.csv': strToU8('propertyName,value\noneroster.version,1.0\n') });
    const res = await call(d.admin, 'POST', BASE, bad);
    expect(res.status).toBe(400);
    expect(res.body.fields.file).toMatch(/oneroster.version/);
    expect((await call(d.admin, 'POST', BASE, strToU8('hello'), 'text/csv')).status).toBe(400);
    expect((await call(d.admin, 'POST', `${BASE}?file=people`, strToU8('x'), 'text/csv')).status).toBe(400);

    const teacher = { ...d.admin, userId: randomUUID(), role: 'teacher' as const };
    expect((await call(teacher, 'POST', BASE, roster(d.domain))).status).toBe(403);

    const mine = await call(d.admin, 'POST', BASE, roster(d.domain));
    const other = await district();
    expect((await call(other.admin, 'GET', `${BASE}/${mine.body.id}`)).status).toBe(404);
    expect((await call(other.admin, 'POST', `${BASE}/${mine.body.id}/apply`)).status).toBe(404);
    expect((await call(other.admin, 'GET', `${BASE}/${mine.body.id}/errors.csv`)).status).toBe(404);
  });

  it('when a roster needs more memory than the preview may use, then 413 names the limit, and the service keeps answering and previewing', async () => {
    // A second instance whose preview worker may use 64 MiB of heap (ROSTER_PREVIEW_MEMORY_MB).
    const small = await h.start({ ROSTER_PREVIEW_MEMORY_MB: '64' });
    const d = await district();
    const post = async (body: Uint8Array) => {
      const headers = { ...(await gatewayHeaders('identity', d.admin)), 'content-type': 'application/zip' };
      const res = await fetch(new URL(BASE, small.url), { method: 'POST', headers, body });
      return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
    };
    // 200,000 users (some 14 MB of CSV, zipped well under the upload limit): read and planned,
    // they need several times 64 MiB.
    const users = Array.from(
      { length: 200_000 },
      (_, i) => `u${i},,,true,user${i},,Given${i},Family${i},user${i}@${d.domain},`,
    );
    const big = await post(pkg('bulk', { users }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('roster_too_large');
    expect(big.body.message).toMatch(/limit: 64 MiB/);
    expect((await fetch(new URL('/healthz', small.url))).status).toBe(200);
    const next = await post(roster(d.domain));
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ status: 'previewed' });
  }, 120_000);

  it('when a single users.csv is sent with ?file=users, then it is previewed on its own', async () => {
    const d = await district();
    const csv = [
      'sourcedId,status,dateLastModified,enabledUser,role,givenName,familyName,email',
      `u1,,,true,teacher,Ann,Lee,ann@${d.domain}`,
    ].join('\n');
    const res = await call(d.admin, 'POST', `${BASE}?file=users`, strToU8(csv), 'text/csv');
    expect(res.status).toBe(201);
    expect(res.body.counts.users).toMatchObject({ new: 1 });
  });

  it('when the file disables the importing admin’s own account and lists a district student as a teacher, then both rows are errors in the preview and neither account changes', async () => {
    const d = await district();
    const studentId = randomUUID();
    await h.db.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Sel', 'Self', 'student')`,
      [studentId, d.tenantId, `sel@${d.domain}`],
    );
    const file = pkg('bulk', {
      users: [`a1,,,false,ada,,Ada,Admin,admin@${d.domain},`, `s9,,,true,sel,,Sel,Self,sel@${d.domain},`],
      roles: ['r1,,,a1,primary,administrator,org', 'r2,,,s9,primary,teacher,org'],
    });
    const preview = await call(d.admin, 'POST', BASE, file);
    expect(preview.status).toBe(201);
    expect(preview.body.counts.users).toMatchObject({ rows: 2, invalid: 2 });
    expect(preview.body.errors).toEqual([
      {
        file: 'users.csv',
        line: 2,
        sourcedId: 'a1',
        field: 'enabledUser',
        message: `admin@${d.domain} is your own account: an import cannot disable it`,
      },
      {
        file: 'users.csv',
        line: 3,
        sourcedId: 's9',
        field: 'role',
        message: `sel@${d.domain} is a student account and cannot become teacher: invite the person with a staff address instead`,
      },
    ]);
    expect(preview.body.progress.total).toBe(0);

    expect((await applyAndWait(d.admin, preview.body.id)).status).toBe('done');
    const { rows } = await h.db.query(`select id, role, disabled_at from users where tenant_id = $1 order by role`, [
      d.tenantId,
    ]);
    expect(rows).toEqual([
      { id: d.admin.userId, role: 'admin', disabled_at: null },
      { id: studentId, role: 'student', disabled_at: null },
    ]);
    const mapped = await h.db.query(`select count(*)::int as n from roster_users where tenant_id = $1`, [d.tenantId]);
    expect(mapped.rows[0].n).toBe(0);
    expect(await outboxCount('UserUpdated', d.tenantId)).toBe(0);
  });

  it('when two admins each preview disabling the other and both apply, then the second apply skips its row: the district keeps an active admin', async () => {
    const d = await district();
    const { otherId, other } = await secondAdmin(d);
    const disabling = (sourcedId: string, email: string) =>
      pkg('bulk', {
        users: [`${sourcedId},,,false,x,,Any,Admin,${email},`],
        roles: [`r-${sourcedId},,,${sourcedId},primary,teacher,org`],
      });
    // Each plan is valid when previewed: the district has two active admins.
    const first = await call(d.admin, 'POST', BASE, disabling('b1', `bo@${d.domain}`));
    const second = await call(other, 'POST', BASE, disabling('a1', `admin@${d.domain}`));
    expect([first.body.errorCount, second.body.errorCount]).toEqual([0, 0]);

    expect((await applyAndWait(d.admin, first.body.id)).status).toBe('done');
    // The second admin's token outlives their removal for a while: their apply still runs.
    const done = await applyAndWait(other, second.body.id);
    expect(done).toMatchObject({ status: 'done', errorCount: 1 });
    expect((await call(other, 'GET', `${BASE}/${second.body.id}`)).body.errors).toEqual([
      {
        file: 'users.csv',
        line: 0,
        sourcedId: 'a1',
        field: 'enabledUser',
        message: expect.stringMatching(new RegExp(`^admin@${d.domain} is the district's last active admin`)),
      },
    ]);
    const { rows } = await h.db.query(
      `select id, disabled_at is not null as disabled from users where tenant_id = $1 order by email`,
      [d.tenantId],
    );
    expect(rows).toEqual([
      { id: d.admin.userId, disabled: false },
      { id: otherId, disabled: true },
    ]);
    const mapped = await h.db.query(`select source_id from roster_users where tenant_id = $1`, [d.tenantId]);
    expect(mapped.rows).toEqual([{ source_id: 'b1' }]);
  });

  it('when a re-import changes a user’s role, then their sessions end at once and UserUpdated carries the new role; a name change keeps the sessions', async () => {
    const d = await district();
    await applyAndWait(d.admin, (await call(d.admin, 'POST', BASE, roster(d.domain))).body.id);
    const ids = Object.fromEntries(
      (
        await h.db.query<{ source_id: string; user_id: string }>(
          `select source_id, user_id from roster_users where tenant_id = $1`,
          [d.tenantId],
        )
      ).rows.map((r) => [r.source_id, r.user_id]),
    );
    for (const userId of [ids.t1, ids.s1])
      await h.db.query(
        `insert into sessions (id, family_id, user_id, token_hash, csrf, expires_at)
         values ($1, $1, $2, $3, 'csrf', now() + interval '1 day')`,
        [randomUUID(), userId, randomUUID()],
      );
    const changed = pkg('bulk', {
      users: [`t1,,,true,tina,,Tina,Teach,tina@${d.domain},`, `s1,,,true,sam,,Sam,Stone,sam@${d.domain},`],
      roles: ['r1,,,t1,primary,student,org', 'r2,,,s1,primary,student,org'],
    });
    const preview = await call(d.admin, 'POST', BASE, changed);
    expect(preview.body).toMatchObject({ errorCount: 0 });
    expect(preview.body.counts.users).toMatchObject({ updated: 2 });
    expect((await applyAndWait(d.admin, preview.body.id)).status).toBe('done');

    const live = async (userId: string) =>
      (await h.db.query(`select 1 from sessions where user_id = $1 and revoked_at is null`, [userId])).rowCount;
    expect(await live(ids.t1!)).toBe(0);
    expect(await live(ids.s1!)).toBe(1);
    const updated = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.UserUpdated' and key = $1`,
      [ids.t1],
    );
    expect(fromBinary(UserUpdatedSchema, updated.rows[0]!.payload)).toMatchObject({ role: 'student', disabled: false });
  });

  it('when an admin applies another admin’s preview that disables them, then their row is skipped with a late error and their account stays active', async () => {
    const d = await district();
    const { otherId, other } = await secondAdmin(d);
    const file = pkg('bulk', {
      users: [`b1,,,false,bo,,Bo,Admin,bo@${d.domain},`],
      roles: ['r1,,,b1,primary,teacher,org'],
    });
    // Valid for Ada, who previews it: Bo is not her account and she stays an active admin.
    const preview = await call(d.admin, 'POST', BASE, file);
    expect(preview.body.errorCount).toBe(0);

    const done = await applyAndWait(other, preview.body.id);
    expect(done).toMatchObject({ status: 'done', errorCount: 1 });
    expect((await call(other, 'GET', `${BASE}/${preview.body.id}`)).body.errors).toEqual([
      {
        file: 'users.csv',
        line: 0,
        sourcedId: 'b1',
        field: 'enabledUser',
        message: expect.stringMatching(new RegExp(`^bo@${d.domain} is your own account: an import cannot disable it`)),
      },
    ]);
    const { rows } = await h.db.query(`select role, disabled_at from users where id = $1`, [otherId]);
    expect(rows[0]).toEqual({ role: 'admin', disabled_at: null });
    expect(await outboxCount('UserUpdated', d.tenantId)).toBe(0);
  });

  /** A bulk file: t1 (primary) and t2 teach c1 (`title`) to s1; Tina's last name as given. */
  const classFile = (domain: string, { tinaLast = 'Teach', title = 'Algebra 1' } = {}) =>
    pkg('bulk', {
      users: [
        `t1,,,true,tina,,Tina,${tinaLast},tina@${domain},`,
        `t2,,,true,tom,,Tom,Teach,tom@${domain},`,
        `s1,,,true,sam,,Sam,Stu,sam@${domain},`,
      ],
      roles: ['r1,,,t1,primary,teacher,org', 'r2,,,t2,primary,teacher,org', 'r3,,,s1,primary,student,org'],
      classes: [`c1,,,${title},course1,org,Math,3`],
      enrollments: ['e1,,,c1,org,t1,teacher,true', 'e2,,,c1,org,t2,teacher,false', 'e3,,,c1,org,s1,student,false'],
    });

  /** A district after a first import of classFile. */
  async function withClass() {
    const d = await district();
    const first = classFile(d.domain);
    expect((await applyAndWait(d.admin, (await call(d.admin, 'POST', BASE, first)).body.id)).status).toBe('done');
    const ids = Object.fromEntries(
      (
        await h.db.query<{ source_id: string; user_id: string }>(
          `select source_id, user_id from roster_users where tenant_id = $1`,
          [d.tenantId],
        )
      ).rows.map((r) => [r.source_id, r.user_id]),
    ) as Record<'t1' | 't2' | 's1', string>;
    expect((await syncs(d.tenantId)).at(-1)).toMatchObject({
      teacherUserIds: [ids.t1, ids.t2],
      studentUserIds: [ids.s1],
    });
    return { ...d, ids };
  }

  it('when a teacher’s row is refused when applying (a student since the preview), then the class sync does not make them its teacher', async () => {
    const d = await withClass();
    const second = classFile(d.domain, { tinaLast: 'Tutor', title: 'Algebra 2' });
    const preview = await call(d.admin, 'POST', BASE, second);
    expect(preview.body.errorCount).toBe(0);
    // The admin pages make Tina a student after the preview.
    await h.db.query(`update users set role = 'student' where id = $1`, [d.ids.t1]);

    expect(await applyAndWait(d.admin, preview.body.id)).toMatchObject({ status: 'done', errorCount: 1 });
    expect((await call(d.admin, 'GET', `${BASE}/${preview.body.id}`)).body.errors).toEqual([
      expect.objectContaining({ sourcedId: 't1', field: 'role', message: expect.stringMatching(/student account/) }),
    ]);
    const all = await syncs(d.tenantId);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({
      sourceId: 'c1',
      title: 'Algebra 2',
      teacherUserIds: [d.ids.t2],
      studentUserIds: [d.ids.s1],
    });
    const kept = await h.db.query(`select teacher_user_ids from roster_classes where tenant_id = $1`, [d.tenantId]);
    expect(kept.rows).toEqual([{ teacher_user_ids: [d.ids.t2] }]);
  });

  it('when a removal is refused when applying, then the class sync keeps the person where they were', async () => {
    const d = await withClass();
    // Tina is made an admin; Ada’s file removes her, and Tina applies it.
    await h.db.query(`update users set role = 'admin' where id = $1`, [d.ids.t1]);
    const tina: Actor = { userId: d.ids.t1, tenantId: d.tenantId, role: 'admin' };
    const when = '2026-11-20T08:00:00Z';
    const removal = pkg('delta', {
      users: [`t1,tobedeleted,${when},true,tina,,Tina,Teach,tina@${d.domain},`],
      classes: [`c1,active,${when},Algebra 1,course1,org,Math,3`],
    });
    const preview = await call(d.admin, 'POST', BASE, removal);
    expect(preview.body).toMatchObject({ errorCount: 0 });
    expect(preview.body.counts.users).toMatchObject({ deleted: 1 });

    expect(await applyAndWait(tina, preview.body.id)).toMatchObject({ status: 'done', errorCount: 1 });
    const { rows } = await h.db.query(`select disabled_at from users where id = $1`, [d.ids.t1]);
    expect(rows[0].disabled_at).toBeNull();
    // Still the owner (first) of the class, which Tom and Sam stay in.
    expect((await syncs(d.tenantId)).at(-1)).toMatchObject({
      sourceId: 'c1',
      teacherUserIds: [d.ids.t1, d.ids.t2],
      studentUserIds: [d.ids.s1],
    });
  });

  it('when a batch of users holds the tenant’s lock, then a new account of the district (its foreign key to the tenant) is inserted without waiting', async () => {
    const d = await district();
    const prisma = createPrisma(h.db, 'identity');
    const repo = rosterRepository(prisma);
    const signUp = randomUUID();
    let inserted: unknown;
    await repo.applyUsers(
      d.tenantId,
      d.admin.userId,
      [
        {
          sourceId: 'n1',
          userId: randomUUID(),
          action: 'create',
          email: `nina@${d.domain}`,
          firstName: 'Nina',
          lastName: 'New',
          role: 'teacher',
          disabled: false,
        },
      ],
      recheckPlanned,
      async () => {
        // Inside the batch's transaction: a sign-up on another connection.
        const other = await h.db.connect();
        try {
          await other.query(`set lock_timeout = '3s'`);
          inserted = await other
            .query(
              `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Sid', 'Signup', 'teacher')`,
              [signUp, d.tenantId, `sid@${d.domain}`],
            )
            .then(() => 'inserted')
            .catch((err: Error) => err.message);
        } finally {
          await other.query(`reset lock_timeout`);
          other.release();
        }
      },
    );
    expect(inserted).toBe('inserted');
    const { rows } = await h.db.query(`select email from users where tenant_id = $1 order by email`, [d.tenantId]);
    expect(rows.map((r) => r.email)).toEqual([`admin@${d.domain}`, `nina@${d.domain}`, `sid@${d.domain}`]);
    await prisma.$disconnect();
  });

  it('when a stored plan is read a batch at a time, then the batches together are the plan, in order', async () => {
    const d = await district();
    const prisma = createPrisma(h.db, 'identity');
    const repo = rosterRepository(prisma);
    const users = Array.from({ length: 1_234 }, (_, i) => ({
      sourceId: `u${i}`,
      userId: randomUUID(),
      action: 'create' as const,
      email: `u${i}@${d.domain}`,
      firstName: `Given${i}`,
      lastName: 'Family',
      role: 'student' as const,
      disabled: false,
    }));
    const classes = Array.from({ length: 3 }, (_, i) => ({
      sourceId: `c${i}`,
      title: `Class ${i}`,
      subject: 'Math',
      period: null,
      teacherUserIds: [],
      studentUserIds: users.slice(i, i + 2).map((u) => u.userId),
      active: true,
    }));
    const id = randomUUID();
    await repo.createImport({
      id,
      tenantId: d.tenantId,
      createdBy: d.admin.userId,
      mode: 'bulk',
      planJson: JSON.stringify({ users, classes }),
      changes: users.length + classes.length,
      counts: {},
      errorCount: 0,
      errorChunks: [],
    });
    expect(await repo.planSize(id)).toEqual({ users: 1_234, classes: 3 });
    const read = [];
    for (let i = 0; i < 1_234; i += 500) read.push(...(await repo.readPlanSlice(id, 'users', i, 500)));
    expect(read).toEqual(users);
    expect(await repo.readPlanSlice(id, 'classes', 2, 100)).toEqual([classes[2]]);
    await prisma.$disconnect();
  });
});
