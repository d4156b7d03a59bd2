// Privacy operations end to end (docs/adr/009-privacy-operations.md), all-in-one: a student with a
// class, answers, a result and practice → the district admin's export holds them (JSON and CSV)
// → the student's deletion reaches 5 of 5 services, and the student's id is then found in no
// column of any table of any service schema (as text, uuid, inside json and arrays, inside bytea);
// the district's deletion likewise for the district's id and its people; the audit log records
// the teacher's reads and the admin's export and deletion, filterable; teachers may use none of it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeleteDistrict } from '../../services/identity/src/cli/delete-district.command.ts';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import { Client, eventually, joinDistrict, startBackend, type Backend, type Reply } from './helpers.ts';

const PASSWORD = 'correct horse battery';
const SCHEMAS = ['identity', 'class', 'assessment', 'generation', 'analytics'];
const LESSON = 'Fractions name parts of a whole. The denominator tells how many equal parts the whole has.';

let backend: Backend;
let db: pg.Client;
const tag = Date.now().toString(36);
const DISTRICT = `Privacy District ${tag}`;
const DOMAIN = `privacy-${tag}.example.org`;

function ok(res: Reply, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function signIn(email: string): Promise<Client> {
  const c = new Client(backend.url);
  c.user = ok(await c.post('/api/auth/simple-login', { email, password: PASSWORD }), 200, `sign-in ${email}`).user;
  return c;
}

/** Every place (schema.table.column) where `needle` still appears, in any column of any service table. */
async function whereFound(needle: string): Promise<string[]> {
  const { rows: columns } = await db.query<{ s: string; t: string; c: string; type: string }>(
    `select c.table_schema as s, c.table_name as t, c.column_name as c, c.data_type as type
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = any($1) and t.table_type = 'BASE TABLE'`,
    [SCHEMAS],
  );
  const hits: string[] = [];
  for (const col of columns) {
    const ref = `"${col.s}"."${col.t}"`;
    const c = `"${col.c}"`;
    const test =
      col.type === 'bytea'
        ? `position(convert_to($1, 'UTF8') in ${c}) > 0 or position(decode(replace($1, '-', ''), 'hex') in ${c}) > 0`
        : `strpos(lower(${c}::text), lower($1)) > 0`;
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${ref} where ${test}`, [needle]);
    if (rows[0]!.n > 0) hits.push(`${col.s}.${col.t}.${col.c} (${rows[0]!.n})`);
  }
  return hits;
}

async function expectGone(id: string, what: string): Promise<void> {
  // Rows naming the id in an outbox leave once published (a moment after the answers).
  const hits = await eventually(
    () => whereFound(id),
    (h) => h.length === 0,
    20_000,
  );
  expect(hits, `${what} ${id} still found in`).toEqual([]);
}

let admin: Client;
let teacher: Client;
let student: Client;
let classmate: Client;
let classId: string;
let assessmentId: string;
let resultId: string;

beforeAll(async () => {
  // The retention jobs run every second here (a day by default).
  backend = await startBackend({ PRIVACY_RETENTION_INTERVAL_MS: '1000' });
  db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  await db.query(
    `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), $1, 'district', $2)`,
    [DISTRICT, [DOMAIN]],
  );
  const adminTeacher = await joinDistrict(backend, 'teacher', { domain: DOMAIN, firstName: 'Ada', lastName: 'Admin' });
  const lines: string[] = [];
  const code = await runMakeAdmin(
    [adminTeacher.user!.email],
    { DATABASE_URL: backend.postgres.url },
    { log: (l) => lines.push(l), error: (l) => lines.push(l) },
  );
  if (code !== 0) throw new Error(`make-admin: ${lines.join('\n')}`);
  admin = await signIn(adminTeacher.user!.email);
  teacher = await joinDistrict(backend, 'teacher', { domain: DOMAIN, firstName: 'Tess', lastName: 'Teacher' });
  student = await joinDistrict(backend, 'student', { domain: DOMAIN, firstName: 'Pia', lastName: 'Private' });
  classmate = await joinDistrict(backend, 'student', { domain: DOMAIN, firstName: 'Carl', lastName: 'Classmate' });

  const c = ok(await teacher.post('/api/classes', { name: 'Fractions', subject: 'Math', period: '2' }), 201, 'class');
  classId = c.id;
  for (const s of [student, classmate]) ok(await s.post('/api/classes/join', { joinCode: c.joinCode }), 200, 'join');
  const created = await eventually(
    () =>
      teacher.post('/api/assessments', {
        title: 'Fractions check',
        contentToAssess: LESSON,
        questionType: 'true_false',
        numberOfQuestions: 2,
        description: '',
        classId,
      }),
    (r) => r.status !== 404,
  );
  assessmentId = ok(created, 201, 'assessment').id;
  await eventually(
    () => teacher.get(`/api/assessments/${assessmentId}`),
    (r) => r.body?.generationStatus === 'ready',
    30_000,
  );
  ok(await teacher.post(`/api/assessments/${assessmentId}/assign`), 200, 'assign');
  const questions = (await teacher.get(`/api/assessments/${assessmentId}/questions`)).body as {
    id: string;
    correctAnswer: string;
  }[];
  for (const s of [student, classmate]) {
    await eventually(
      () => s.get('/api/student/available-assessments'),
      (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === assessmentId),
    );
  }
  // Wrong answers: below standard, so there is support practice.
  for (const q of questions) {
    const wrong = q.correctAnswer === 'True' ? 'False' : 'True';
    ok(await student.post('/api/responses', { assessmentId, questionId: q.id, answer: wrong }), 200, 'answer');
    ok(
      await classmate.post('/api/responses', { assessmentId, questionId: q.id, answer: q.correctAnswer }),
      200,
      'answer',
    );
  }
  resultId = ok(await student.post('/api/results', { assessmentId }), 201, 'submit').id;
  ok(await classmate.post('/api/results', { assessmentId }), 201, 'submit');
  const practice = await eventually(
    () => student.get(`/api/support-content/${resultId}`),
    (r) => r.status === 200,
    30_000,
  );
  const answers = Object.fromEntries((practice.body.questions as unknown[]).map((_q, i) => [String(i), 'x']));
  ok(await student.post(`/api/support-content/${resultId}/submit`, { answers }), 200, 'practice');
  // The read models caught up (analytics has both results).
  await eventually(
    () => teacher.get(`/api/classes/${classId}/results`),
    (r) => r.status === 200 && r.body.length === 2,
    30_000,
  );
  ok(await teacher.get(`/api/classes/${classId}/grid`), 200, 'grid');
  ok(await teacher.get(`/api/classes/${classId}/students`), 200, 'students');
}, 180_000);

afterAll(async () => {
  await db?.end();
  await backend?.stop();
});

describe('privacy operations', () => {
  it('when a teacher calls the privacy routes, then every one answers 403', async () => {
    const id = student.user!.id;
    expect((await teacher.post(`/api/district/students/${id}/exports`)).status).toBe(403);
    expect((await teacher.del(`/api/district/students/${id}`)).status).toBe(403);
    expect((await teacher.get('/api/district/audit')).status).toBe(403);
    expect((await teacher.get('/api/district/audit/export.csv')).status).toBe(403);
    expect((await teacher.put('/api/district/privacy', { retentionDays: 30 })).status).toBe(403);
    expect((await teacher.post('/api/district/deletion', { confirmName: DISTRICT })).status).toBe(403);
    expect((await student.get('/api/district/audit')).status).toBe(403);
  });

  it('when the admin sets a retention period, then bad values answer 400 naming the field and a good one is kept', async () => {
    const low = await admin.put('/api/district/privacy', { retentionDays: 5 });
    expect(low.status).toBe(400);
    expect(low.body.fields).toHaveProperty('retentionDays');
    expect((await admin.put('/api/district/privacy', { retentionDays: 'x' })).status).toBe(400);
    expect(ok(await admin.put('/api/district/privacy', { retentionDays: 365 }), 200, 'set')).toMatchObject({
      retentionDays: 365,
      districtName: DISTRICT,
    });
    // The services keep the period (the event reached each).
    await eventually(
      () => db.query(`select count(*)::int as n from class.privacy_retention where retention_days = 365`),
      (r) => r.rows[0].n === 1,
    );
    expect(
      ok(await admin.put('/api/district/privacy', { retentionDays: null }), 200, 'unset').retentionDays,
    ).toBeNull();
  });

  it('when the admin exports a student, then every service answers and the JSON and CSV hold the class, answers, result and practice', async () => {
    const id = student.user!.id;
    const started = ok(await admin.post(`/api/district/students/${id}/exports`), 202, 'export');
    expect(started.expected).toBe(5);
    const done = await eventually(
      () => admin.get(`/api/district/students/${id}/exports/${started.requestId}`),
      (r) => r.body?.complete === true,
      20_000,
    );
    expect(done.body.answered).toBe(5);
    const json = ok(
      await admin.get(`/api/district/students/${id}/exports/${started.requestId}/download?format=json`),
      200,
      'download',
    );
    const s = json.services;
    expect(s.identity.tables.users[0]).toMatchObject({ id, first_name: 'Pia' });
    expect(JSON.stringify(s.identity)).not.toMatch(/argon2|password_hash":"\$/);
    expect(s.class.tables.memberships.map((m: { class_id: string }) => m.class_id)).toContain(classId);
    expect(s.assessment.tables.responses.length).toBe(2);
    expect(s.assessment.tables.results.map((r: { id: string }) => r.id)).toEqual([resultId]);
    expect(s.generation.tables.result_practice.map((r: { result_id: string }) => r.result_id)).toEqual([resultId]);
    expect(s.analytics.tables.results.map((r: { result_id: string }) => r.result_id)).toEqual([resultId]);
    // Nothing of the classmate.
    expect(JSON.stringify(json)).not.toContain(classmate.user!.id);

    const csv = await admin.get(`/api/district/students/${id}/exports/${started.requestId}/download?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('service,table,row,field,value');
    expect(lines).toContain(`assessment,results,1,id,${resultId}`);
    expect(lines).toContain(`class,memberships,1,class_id,${classId}`);

    // Another district's admin, or another student's id, finds nothing.
    expect((await admin.post(`/api/district/students/${teacher.user!.id}/exports`)).status).toBe(404);
    expect((await admin.post('/api/district/students/00000000-0000-4000-8000-000000000000/exports')).status).toBe(404);
  });

  it('when teachers read and the admin exports, then the audit log has those entries, filterable and as CSV', async () => {
    const byTeacher = await eventually(
      () => admin.get(`/api/district/audit?actor=${teacher.user!.id}&action=read`),
      (r) => r.status === 200 && r.body.entries.length >= 3,
    );
    const resources = byTeacher.body.entries.map((e: { resource: string }) => e.resource);
    expect(resources).toEqual(
      expect.arrayContaining([
        'GET /api/classes/{id}/results',
        'GET /api/classes/{id}/grid',
        'GET /api/classes/{id}/students',
      ]),
    );
    for (const e of byTeacher.body.entries) {
      expect(e).toMatchObject({ actorId: teacher.user!.id, actorRole: 'teacher', action: 'read' });
      expect(e.targetIds).toContain(classId);
    }
    // Identity's district administration is audited the same way (the admin's user list here).
    ok(await admin.get('/api/district/users?role=student'), 200, 'users');
    const listed = await eventually(
      () => admin.get(`/api/district/audit?actor=${admin.user!.id}&action=read`),
      (r) => r.status === 200 && r.body.entries.length > 0,
    );
    expect(listed.body.entries[0]).toMatchObject({ resource: 'GET /api/district/users', service: 'identity' });
    const exports = ok(await admin.get(`/api/district/audit?action=export&target=${student.user!.id}`), 200, 'audit');
    expect(exports.entries).toHaveLength(1);
    expect(exports.entries[0]).toMatchObject({ actorId: admin.user!.id, actorRole: 'admin' });
    // Paging: one entry per page, every entry once.
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Reply = await admin.get(`/api/district/audit?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      for (const e of page.body.entries) seen.add(e.id);
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = ok(await admin.get('/api/district/audit?limit=200'), 200, 'all');
    expect(seen.size).toBe(all.entries.length);
    expect((await admin.get('/api/district/audit?action=peek')).body.fields).toHaveProperty('action');
    // ISO allows offsets Postgres does not (+21:54): read in UTC, not a 500.
    const farOffset = encodeURIComponent('2020-02-29T00:00:00+21:54');
    expect((await admin.get(`/api/district/audit?from=${farOffset}&to=${farOffset}`)).status).toBe(200);
    expect((await admin.get(`/api/district/audit/export.csv?from=${farOffset}`)).status).toBe(200);
    expect((await admin.get('/api/district/audit?to=9999-12-31T23:00:00-23:00')).body.fields).toHaveProperty('to');
    const csv = await admin.get(`/api/district/audit/export.csv?actor=${teacher.user!.id}`);
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('GET /api/classes/{id}/grid');
    // A report names the classes it read (classIds is a list).
    ok(await teacher.get(`/api/reports?classIds=${classId}`), 200, 'report');
    const reports = await eventually(
      () => admin.get(`/api/district/audit?actor=${teacher.user!.id}&target=${classId}`),
      (r) => r.status === 200 && r.body.entries.some((e: { resource: string }) => e.resource === 'GET /api/reports'),
    );
    expect(reports.body.entries[0]).toMatchObject({ resource: 'GET /api/reports', targetIds: [classId] });
    // Append-only: the service's own role cannot change an entry.
    await expect(db.query('update identity.audit_log set action = $1', ['read'])).rejects.toThrow(/append-only/);
    await expect(db.query('delete from identity.audit_log')).rejects.toThrow(/append-only/);
  });

  it('when an audited path is called in another case, then it is no route: 404, nothing read, nothing to audit', async () => {
    for (const path of [
      `/api/classes/${classId}/Students`,
      `/api/classes/${classId}/GRID`,
      `/api/Classes/${classId}/students`,
    ]) {
      const res = await teacher.get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body), path).not.toContain(student.user!.email);
    }
  });

  it('when the admin deletes the student, then 5 of 5 services confirm and the id is in no table of any schema', async () => {
    const id = student.user!.id;
    // The teacher names the student in upper case: the entry is found by the id, and erased with it.
    ok(await teacher.del(`/api/classes/${classId}/students/${id.toUpperCase()}`), 204, 'remove');
    const removal = await eventually(
      () => admin.get(`/api/district/audit?target=${id}&action=change`),
      (r) => r.status === 200 && r.body.entries.length === 1,
    );
    expect(removal.body.entries[0]).toMatchObject({
      resource: 'DELETE /api/classes/{id}/students/{studentId}',
      targetIds: [classId, id],
    });
    const started = ok(await admin.del(`/api/district/students/${id}`), 202, 'delete');
    const done = await eventually(
      () => admin.get(`/api/district/privacy/requests/${started.requestId}`),
      (r) => r.body?.complete === true,
      20_000,
    );
    expect(done.body).toMatchObject({ kind: 'delete_user', answered: 5, expected: 5 });
    await expectGone(id, 'student');
    // The student is signed out for good, at every service (the gateway refuses the session's
    // access token although its row is gone); the classmate's data stays.
    expect((await student.get('/api/auth/user')).status).toBe(401);
    const refused = await eventually(
      () => student.get('/api/student/classes'),
      (r) => r.status === 401,
    );
    expect(refused.status).toBe(401);
    const results = ok(await teacher.get(`/api/classes/${classId}/results`), 200, 'results');
    expect(results).toHaveLength(1);
    // The audit log keeps the deletion, with the id replaced by its pseudonym.
    const deletions = ok(await admin.get('/api/district/audit?action=delete'), 200, 'audit');
    expect(deletions.entries[0].targetIds[0]).toMatch(/^erased:[0-9a-f]{32}$/);
  });

  it('when the district keeps 30 days, then every service deletes student activity older than that', async () => {
    const id = classmate.user!.id;
    const old = "now() - interval '40 days'";
    // Backdating as the superuser, triggers off (the answers' trigger drops writes after a submit).
    await db.query('set session_replication_role = replica');
    await db.query(`update assessment.responses set created_at = ${old}, updated_at = ${old} where student_id = $1`, [
      id,
    ]);
    for (const table of ['assessment.results', 'class.class_results', 'generation.results', 'analytics.results'])
      await db.query(`update ${table} set submitted_at = ${old} where student_id = $1`, [id]);
    await db.query('set session_replication_role = origin');
    const activity = async () =>
      (
        await db.query<{ n: number }>(
          `select (select count(*) from assessment.responses where student_id = $1)
                + (select count(*) from assessment.results where student_id = $1)
                + (select count(*) from class.class_results where student_id = $1)
                + (select count(*) from generation.results where student_id = $1)
                + (select count(*) from analytics.results where student_id = $1) as n`,
          [id],
        )
      ).rows[0]!.n;
    expect(Number(await activity())).toBeGreaterThan(0);
    ok(await admin.put('/api/district/privacy', { retentionDays: 30 }), 200, 'retention');
    expect(Number(await eventually(activity, (n) => Number(n) === 0, 20_000))).toBe(0);
    // The class's counts and the district's figures follow.
    const c = ok(await teacher.get(`/api/classes/${classId}`), 200, 'class');
    expect([c.belowStandard, c.atStandard, c.aboveStandard]).toEqual([0, 0, 0]);
    expect(ok(await teacher.get(`/api/classes/${classId}/results`), 200, 'results')).toEqual([]);
  });

  it('when the admin deletes the district with its name typed, then its id and its people are in no table', async () => {
    const people = [admin, teacher, classmate].map((c) => c.user!.id);
    const tenantId = admin.user!.tenantId;
    const wrong = await admin.post('/api/district/deletion', { confirmName: 'Some other district' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toHaveProperty('confirmName');
    const started = ok(await admin.post('/api/district/deletion', { confirmName: DISTRICT }), 202, 'district');
    await eventually(
      () =>
        db.query('select count(*)::int as n from identity.privacy_request_answers where request_id = $1', [
          started.requestId,
        ]),
      (r) => r.rows[0].n === 5,
      20_000,
    );
    await expectGone(tenantId, 'district');
    for (const id of people) await expectGone(id, 'member');
    const refused = await eventually(
      () => teacher.get('/api/classes'),
      (r) => r.status === 401,
    );
    expect(refused.status).toBe(401);
  });

  it('when the operator deletes a district with the command, then a wrong name is refused and the right one deletes it everywhere', async () => {
    const name = `Command District ${tag}`;
    const domain = `command-${tag}.example.org`;
    await db.query(
      `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), $1, 'district', $2)`,
      [name, [domain]],
    );
    const member = await joinDistrict(backend, 'teacher', { domain });
    ok(await member.post('/api/classes', { name: 'Doomed', subject: 'Math', period: '1' }), 201, 'class');
    const lines: string[] = [];
    const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
    const env = { DATABASE_URL: backend.postgres.url };
    expect(await runDeleteDistrict([name, 'Another name'], env, out)).toBe(1);
    expect(lines.join('\n')).toMatch(/Type the district name exactly/);
    expect(await runDeleteDistrict([name, name], env, out)).toBe(0);
    await expectGone(member.user!.tenantId, 'district');
    await expectGone(member.user!.id, 'member');
  });
});
