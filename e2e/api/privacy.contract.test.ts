// Privacy operations end to end (docs/adr/009-privacy-operations.md), all-in-one: a student with a
// class, answers, a result and practice → the district admin's export holds them (JSON and CSV)
// → the student's deletion reaches 6 of 6 services, and the student's id is then found in no
// column of any table of any service schema (as text, uuid, inside json and arrays, inside bytea);
// the district's deletion likewise for the district's id and its people; the audit log records
// the teacher's reads and the admin's export and deletion, filterable; teachers may use none of it.
import { strToU8, unzipSync, zipSync, strFromU8 } from 'fflate';
import pg from 'pg';
import { SERVICE_NAMES } from '@checkpoint/service-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeleteDistrict } from '../../services/identity/src/cli/delete-district.command.ts';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import { Client, eventually, joinDistrict, linkMailedTo, startBackend, type Backend, type Reply } from './helpers.ts';

const PASSWORD = 'correct horse battery';
// Every service's schema (named after the service: packages/service-registry/services.js).
const SCHEMAS = [...SERVICE_NAMES];
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

/** The raw answer of a GET (bytes and headers), with the client's session. */
async function download(
  client: Client,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(new URL(path, client.baseUrl), {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A OneRoster upload (the zip itself, with the session's cookies and CSRF pair). */
async function uploadRoster(client: Client, body: Uint8Array): Promise<Reply> {
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

/** A roster of one student, Rory Roster. */
function oneStudentRoster(): Uint8Array {
  const csv = (lines: string[]) => strToU8(lines.join('\r\n'));
  return zipSync({
    'manifest.csv': csv([
      'propertyName,value',
      'manifest.version,1.0',
      'oneroster.version,1.2',
      'file.users,bulk',
      'file.roles,bulk',
    ]),
    'users.csv': csv([
      'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,email',
      `u-${tag},,,true,rory,,Rory,Roster,rory.roster.${tag}@${DOMAIN}`,
    ]),
    'roles.csv': csv([
      'sourcedId,status,dateLastModified,userSourcedId,roleType,role',
      `r-${tag},,,u-${tag},primary,student`,
    ]),
  });
}

const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

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
    expect(started.expected).toBe(6);
    const done = await eventually(
      () => admin.get(`/api/district/students/${id}/exports/${started.requestId}`),
      (r) => r.body?.complete === true,
      20_000,
    );
    expect(done.body.answered).toBe(6);
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
    // The integrations service answered; it keeps no row naming a Checkpoint user yet (docs/adr/014-lti.md).
    expect(s.integrations).toBeDefined();
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
    // The request, and each download of it (the export test downloaded it as JSON and CSV).
    const requested = exports.entries.filter(
      (e: { resource: string }) => e.resource === 'POST /api/district/students/{id}/exports',
    );
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({ actorId: admin.user!.id, actorRole: 'admin' });
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

  it('when a teacher reads a student’s result, practice, answers, class grid and list, and the admin downloads their export, then a search by the student finds each read', async () => {
    ok(await teacher.get(`/api/results/${resultId}`), 200, 'result');
    ok(await teacher.get(`/api/support-content/${resultId}`), 200, 'practice');
    const started = ok(await admin.post(`/api/district/students/${student.user!.id}/exports`), 202, 'export');
    const base = `/api/district/students/${student.user!.id}/exports/${started.requestId}`;
    await eventually(
      () => admin.get(base),
      (r) => r.status === 200 && r.body.complete === true,
      30_000,
    );
    ok(await admin.get(`${base}/download?format=json`), 200, 'download');
    // Reads of the whole class's or assessment's data show this student too.
    ok(await teacher.get(`/api/assessments/${assessmentId}/responses`), 200, 'responses');
    ok(await teacher.get(`/api/assessments/${assessmentId}/results`), 200, 'assessment results');
    ok(await teacher.get(`/api/classes/${classId}/grid`), 200, 'grid');
    ok(await teacher.get(`/api/classes/${classId}/students`), 200, 'members');
    const wanted = [
      'GET /api/results/{id}',
      'GET /api/support-content/{resultId}',
      'GET /api/district/students/{id}/exports/{requestId}/download',
      'GET /api/assessments/{id}/responses',
      'GET /api/assessments/{id}/results',
      'GET /api/classes/{id}/grid',
      'GET /api/classes/{id}/students',
    ];
    const byStudent = await eventually(
      () => admin.get(`/api/district/audit?target=${student.user!.id}&limit=200`),
      (r) =>
        r.status === 200 && wanted.every((w) => r.body.entries.some((e: { resource: string }) => e.resource === w)),
      20_000,
    );
    const entries = byStudent.body.entries as { resource: string; actorId: string; targetIds: string[] }[];
    for (const w of wanted) {
      const e = entries.find((x) => x.resource === w)!;
      expect(e.targetIds, w).toContain(student.user!.id);
      expect(e.actorId, w).toBe(w.includes('/district/') ? admin.user!.id : teacher.user!.id);
    }
    expect(entries.find((x) => x.resource === 'GET /api/results/{id}')!.targetIds).toContain(resultId);
  });

  it('when the admin downloads the export as a document, then a parent reads the student, classes, assessments with score, level and answers, in a file named for the student', async () => {
    const id = student.user!.id;
    const started = ok(await admin.post(`/api/district/students/${id}/exports`), 202, 'export');
    await eventually(
      () => admin.get(`/api/district/students/${id}/exports/${started.requestId}`),
      (r) => r.body?.complete === true,
      20_000,
    );
    const base = `/api/district/students/${id}/exports/${started.requestId}/download`;
    const today = new Date().toISOString().slice(0, 10);
    const name = `checkpoint-export-pia-private-${today}`;
    const html = await download(admin, `${base}?format=html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    expect(html.headers.get('content-disposition')).toBe(`attachment; filename="${name}.html"`);
    const page = new TextDecoder().decode(html.bytes);
    expect(page).toContain('The data Checkpoint holds about Pia Private');
    expect(page).toContain(`Prepared for ${DISTRICT}`);
    // The class by name with its teacher, the assessment by title with score and level.
    expect(page).toMatch(/<td>Fractions<\/td><td>Math<\/td><td>2<\/td><td>Tess Teacher<\/td>/);
    expect(page).toContain('<h3>Fractions check</h3>');
    expect(page).toMatch(/Score: 0 of 2 points \(0 %\) · Level: <strong>Below Standard<\/strong>/);
    // Every question with the student's answer and the correct one (all were answered wrongly).
    const questions = (await teacher.get(`/api/assessments/${assessmentId}/questions`)).body as {
      questionText: string;
      correctAnswer: string;
    }[];
    for (const q of questions) {
      const wrong = q.correctAnswer === 'True' ? 'False' : 'True';
      const cell = q.questionText.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(page).toContain(`<td>${cell}</td><td>${wrong}</td><td>${q.correctAnswer}</td><td>Not right</td>`);
    }
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toContain(classmate.user!.id);
    // The zip holds the document and the machine-readable files, all named for the student.
    const zip = await download(admin, `${base}?format=zip`);
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="${name}.zip"`);
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files).sort()).toEqual([`${name}/${name}.csv`, `${name}/${name}.html`, `${name}/${name}.json`]);
    expect(strFromU8(files[`${name}/${name}.html`]!)).toBe(page);
    const json = JSON.parse(strFromU8(files[`${name}/${name}.json`]!));
    expect(json.services.assessment.tables.results[0]).toMatchObject({ performance_level: 'below' });
    expect(json.services.analytics.context.assessments).toEqual([
      expect.objectContaining({ assessment_id: assessmentId, title: 'Fractions check' }),
    ]);
    const csv = await download(admin, `${base}?format=csv`);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${name}.csv"`);
    expect((await admin.get(`${base}?format=pdf`)).body.fields).toHaveProperty('format');
  });

  it('when the admin invites, revokes, an invitee accepts and a roster is applied, then the audit log says who did what to whom in names, filterable by person', async () => {
    const invited = `sam.${tag}@elsewhere.example.net`;
    ok(await admin.post('/api/district/invitations', { email: invited, role: 'teacher' }), 202, 'invite');
    const { token } = await linkMailedTo(backend.mail, invited, '/accept-invitation');
    const sam = new Client(backend.url);
    ok(
      await sam.post('/api/auth/invitations/accept', {
        token,
        firstName: 'Sam',
        lastName: 'Sender',
        password: PASSWORD,
      }),
      201,
      'accept',
    );
    const dropped = `drop.${tag}@elsewhere.example.net`;
    ok(await admin.post('/api/district/invitations', { email: dropped, role: 'student' }), 202, 'invite');
    const pending = ok(await admin.get('/api/district/invitations'), 200, 'invitations').invitations as {
      id: string;
      email: string;
    }[];
    const revoke = pending.find((i) => i.email === dropped)!;
    expect((await admin.del(`/api/district/invitations/${revoke.id}`)).status).toBe(204);
    const preview = ok(await uploadRoster(admin, oneStudentRoster()), 201, 'roster');
    ok(await admin.post(`/api/district/roster/imports/${preview.id}/apply`), 202, 'apply');

    const log = await eventually(
      () => admin.get('/api/district/audit?limit=200'),
      (r) => r.status === 200 && r.body.entries.some((e: { event: string }) => e.event === 'roster.applied'),
    );
    const summaries = log.body.entries.map((e: { summary: string }) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        `Ada Admin invited ${invited} as teacher`,
        'Sam Sender accepted an invitation and joined as teacher',
        `Ada Admin invited ${dropped} as student`,
        `Ada Admin revoked the invitation of ${dropped} as student`,
        'Ada Admin applied a roster import: 1 new user',
        "Ada Admin viewed the district's users",
        "Tess Teacher viewed a class's results grid",
        'Ada Admin exported the data of Pia Private',
        'Ada Admin set student activity to be kept 365 days',
        'Ada Admin set student activity to be kept until deleted',
      ]),
    );
    // Names, not routes and ids; the stored entry stays machine-readable.
    for (const summary of summaries) expect(summary).not.toMatch(UUID_IN_TEXT);
    for (const summary of summaries) expect(summary).not.toMatch(/\/api\//);
    const applied = log.body.entries.find((e: { event: string }) => e.event === 'roster.applied');
    expect(applied).toMatchObject({
      actorId: admin.user!.id,
      action: 'change',
      details: { importId: preview.id, counts: { users: { rows: 1, new: 1 } } },
    });

    // By person: a name finds the person as actor or subject; an address finds the invitation too.
    const bySam = ok(await admin.get('/api/district/audit?person=Sender'), 200, 'person').entries;
    expect(bySam.map((e: { summary: string }) => e.summary)).toEqual([
      'Sam Sender accepted an invitation and joined as teacher',
    ]);
    const byAddress = ok(
      await admin.get(`/api/district/audit?person=${encodeURIComponent(`sam.${tag}`)}`),
      200,
      'person',
    );
    expect(byAddress.entries.map((e: { event: string }) => e.event).sort()).toEqual([
      'invitation.accepted',
      'invitation.sent',
    ]);
    const byPia = ok(await admin.get(`/api/district/audit?person=${student.user!.id}`), 200, 'person').entries;
    expect(byPia.length).toBeGreaterThan(0);
    for (const e of byPia) expect(e.targetIds).toContain(student.user!.id);
    const byTess = ok(await admin.get('/api/district/audit?person=tess%20teacher'), 200, 'person').entries;
    expect(byTess.length).toBeGreaterThan(0);
    for (const e of byTess) expect(e.actorId).toBe(teacher.user!.id);
    expect((await admin.get(`/api/district/audit?person=${'x'.repeat(201)}`)).body.fields).toHaveProperty('person');
    // The CSV says it in names too.
    const csv = String((await admin.get('/api/district/audit/export.csv')).body);
    expect(csv.split('\r\n')[0]).toMatch(/^at,summary,/);
    expect(csv).toContain(`Ada Admin revoked the invitation of ${dropped} as student`);
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

  it('when the admin deletes the student, then 6 of 6 services confirm and the id is in no table of any schema', async () => {
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
    expect(done.body).toMatchObject({ kind: 'delete_user', answered: 6, expected: 6 });
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
    // The audit log keeps the deletion, with the id replaced by its pseudonym, and reads it so.
    const deletions = ok(await admin.get('/api/district/audit?action=delete'), 200, 'audit');
    expect(deletions.entries[0].targetIds[0]).toMatch(/^erased:[0-9a-f]{32}$/);
    expect(deletions.entries[0].summary).toBe('Ada Admin deleted the account and data of a deleted user');
    const all = ok(await admin.get('/api/district/audit?limit=200'), 200, 'audit');
    const summaries = all.entries.map((e: { summary: string }) => e.summary);
    expect(summaries).toContain('Ada Admin exported the data of a deleted user');
    expect(summaries).toContain('Tess Teacher removed a deleted user from a class');
    expect(JSON.stringify(all)).not.toContain('Pia');
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
