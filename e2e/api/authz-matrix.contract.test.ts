// The authorization matrix as a test: every route of /api/openapi.json × eleven actors of
// two districts (signed out; admin, owner teacher, other teacher, student with a result, classmate
// without one, student outside the class; and the other district's admin, teacher and student),
// with the status each should get (authz-matrix.ts) and, in every 2xx body, no forbidden key
// (password, hash, token, secret, correctAnswer… unless the cell allows it), no token or password
// hash, and nothing of the other district or of another student. A route of the document without
// an entry, or an entry without its route, fails.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import {
  ACTORS,
  FORBIDDEN_KEY,
  MATRIX,
  ROLE_OF,
  type Access,
  type Actor,
  type CellContext,
  type Fixtures,
  type MatrixEntry,
  type Throwaway,
  ltiRegistration,
} from './authz-matrix.ts';
import { Client, eventually, joinDistrict, signUp, startBackend, type Backend, type Reply } from './helpers.ts';

const PASSWORD = 'correct horse battery';
const DOMAIN = { A: 'a-district.matrix.example.org', B: 'b-district.matrix.example.org' };
const CALL_TIMEOUT_MS = 20_000;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let backend: Backend;
let doc: { paths: Record<string, Record<string, { description?: string }>> };
const clients = {} as Record<Actor, Client>;
let f: Fixtures;
/** Per actor: strings (ids, emails, names) that must not appear in any 2xx body they get. */
const forbidden = {} as Record<Actor, Map<string, string>>;
let cells = 0;

const QUESTIONS = [
  {
    questionText: 'What is 1/2 + 1/4?',
    questionType: 'multiple_choice',
    options: ['3/4', '2/6', '1/8', '2/4'],
    correctAnswer: '3/4',
    points: 1,
  },
  { questionText: 'A half is more than a third.', questionType: 'true_false', correctAnswer: 'True', points: 1 },
];
// Long enough for multiple choice with distractors from the lesson (the offline generator refuses less).
const LESSON =
  'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
  'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
  'A unit fraction has a numerator of one. A mixed number has a whole number part and a fraction part. ' +
  'A number line shows where each fraction lies between zero and one.';

function ok(res: Reply, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function signIn(email: string): Promise<Client> {
  const c = new Client(backend.url);
  const res = ok(await c.post('/api/auth/simple-login', { email, password: PASSWORD }), 200, `sign-in ${email}`);
  c.user = res.user;
  return c;
}

/** A district (like one made by support) owning `domain`: its members join by the link mailed at sign-up (joinDistrict). */
async function makeDistrict(name: string, domain: string) {
  const db = new pg.Client({ connectionString: backend.postgres.url });
  await db.connect();
  try {
    await db.query(
      `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), $1, 'district', $2)`,
      [name, [domain]],
    );
  } finally {
    await db.end();
  }
}

/** A teacher of the district made its admin with the documented command, then signed in again. */
async function makeAdmin(domain: string, lastName: string): Promise<Client> {
  const teacher = await joinDistrict(backend, 'teacher', { domain, firstName: 'Ada', lastName });
  const lines: string[] = [];
  const code = await runMakeAdmin(
    [teacher.user!.email],
    { DATABASE_URL: backend.postgres.url },
    { log: (l) => lines.push(l), error: (l) => lines.push(l) },
  );
  if (code !== 0) throw new Error(`make-admin: ${lines.join('\n')}`);
  const admin = await signIn(teacher.user!.email);
  expect(admin.user!.role).toBe('admin');
  return admin;
}

/** An assessment of `classId` once the class reached the assessment service, its generation done. */
async function createAssessment(teacher: Client, classId: string, numberOfQuestions = 2): Promise<string> {
  const created = await eventually(
    () =>
      teacher.post('/api/assessments', {
        title: 'Fractions check',
        contentToAssess: LESSON,
        questionType: 'true_false',
        numberOfQuestions,
        description: '',
        classId,
      }),
    (r) => r.status !== 404,
  );
  const id = ok(created, 201, 'create assessment').id as string;
  const ready = await eventually(
    () => teacher.get(`/api/assessments/${id}`),
    (r) => r.body?.generationStatus !== 'generating',
    30_000,
  );
  expect(ready.body.generationStatus).toBe('ready');
  return id;
}

/** A1-like: our two questions (instead of the generated ones), assigned to the class. */
async function seededAssessment(teacher: Client, classId: string): Promise<{ id: string; questionIds: string[] }> {
  const id = await createAssessment(teacher, classId);
  for (const q of (await teacher.get(`/api/assessments/${id}/questions`)).body)
    ok(await teacher.del(`/api/questions/${q.id}`), 204, 'delete generated question');
  for (const q of QUESTIONS) ok(await teacher.post(`/api/assessments/${id}/questions`, q), 201, 'add question');
  ok(await teacher.post(`/api/assessments/${id}/assign`), 200, 'assign');
  const questionIds = (await teacher.get(`/api/assessments/${id}/questions`)).body.map((q: { id: string }) => q.id);
  return { id, questionIds };
}

async function createClass(teacher: Client, name = 'Throwaway'): Promise<{ id: string; joinCode: string }> {
  return ok(await teacher.post('/api/classes', { name, subject: 'Math', period: '1' }), 201, 'create class');
}

/** Waits until the assessment service lets the student see the assessment. */
const availableTo = (c: Client, id: string) =>
  eventually(
    () => c.get('/api/student/available-assessments'),
    (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === id),
  );

/**
 * A new teacher of district A once the class service knows them (identity's event arrived): A.owner
 * adds them to a scratch class until that is 201.
 */
async function districtTeacherKnownToClasses(): Promise<{ id: string; email: string }> {
  const teacher = (await joinDistrict(backend, 'teacher', { domain: DOMAIN.A })).user!;
  const { id: scratch } = await createClass(clients['A.owner'], 'Scratch');
  const added = await eventually(
    () => clients['A.owner'].post(`/api/classes/${scratch}/teachers`, { email: teacher.email }),
    (r) => r.status !== 404,
  );
  ok(added, 201, 'district teacher known to the class service');
  ok(await clients['A.owner'].del(`/api/classes/${scratch}`), 204, 'delete scratch class');
  return { id: teacher.id, email: teacher.email };
}

/** Throwaway objects (authz-matrix.ts `Throwaway`): made on demand, replaced after a 2xx used one. */
const throwaways = new Map<Throwaway, string>();
const REUSABLE = new Set<Throwaway>(['draft']);
const makers: Record<Throwaway, () => Promise<string>> = {
  class: async () => (await createClass(clients['A.owner'])).id,
  archivedClass: async () => {
    const { id } = await createClass(clients['A.owner']);
    ok(await clients['A.owner'].put(`/api/classes/${id}/archive`), 200, 'archive');
    return id;
  },
  classWithMember: async () => {
    const { id, joinCode } = await createClass(clients['A.owner']);
    const s = await joinDistrict(backend, 'student', { domain: DOMAIN.A });
    ok(await s.post('/api/classes/join', { joinCode }), 200, 'join');
    return `${id}/students/${s.user!.id}`;
  },
  coTeacherCandidate: async () => {
    const { id } = await createClass(clients['A.owner']);
    const email = (await districtTeacherKnownToClasses()).email;
    return `${id} ${email}`;
  },
  classWithCoTeacher: async () => {
    const { id } = await createClass(clients['A.owner']);
    const teacher = await districtTeacherKnownToClasses();
    ok(await clients['A.owner'].post(`/api/classes/${id}/teachers`, { email: teacher.email }), 201, 'add co-teacher');
    return `${id}/teachers/${teacher.id}`;
  },
  joinableA: async () => (await createClass(clients['A.owner'])).joinCode,
  joinableB: async () => (await createClass(clients['B.teacher'])).joinCode,
  assessment: () => createAssessment(clients['A.owner'], f.c1.id, 1),
  takeable: async () => {
    const id = await createAssessment(clients['A.owner'], f.c1.id, 1);
    ok(await clients['A.owner'].post(`/api/assessments/${id}/assign`), 200, 'assign');
    await availableTo(clients['A.student'], id);
    await availableTo(clients['A.classmate'], id);
    return id;
  },
  draft: () => createAssessment(clients['A.owner'], f.c1.id, 1),
  submittedResult: async () => {
    const id = await createAssessment(clients['A.owner'], f.c1.id, 1);
    ok(await clients['A.owner'].put(`/api/assessments/${id}`, { maxAttempts: 2 }), 200, 'allow a retake');
    ok(await clients['A.owner'].post(`/api/assessments/${id}/assign`), 200, 'assign');
    await availableTo(clients['A.classmate'], id);
    return ok(await clients['A.classmate'].post('/api/results', { assessmentId: id }), 201, 'submit').id;
  },
  question: async () => {
    const draft = await take('draft', new Set());
    return ok(await clients['A.owner'].post(`/api/assessments/${draft}/questions`, QUESTIONS[0]), 201, 'add question')
      .id;
  },
  districtTeacher: async () => (await joinDistrict(backend, 'teacher', { domain: DOMAIN.A })).user!.id,
  // Privacy operations (H5): a fresh student of district A, and a complete export of one.
  districtStudent: async () => (await joinDistrict(backend, 'student', { domain: DOMAIN.A })).user!.id,
  studentExport: async () => {
    const student = (await joinDistrict(backend, 'student', { domain: DOMAIN.A })).user!.id;
    const started = ok(await clients['A.admin'].post(`/api/district/students/${student}/exports`), 202, 'export');
    const path = `/api/district/students/${student}/exports/${started.requestId}`;
    await eventually(
      () => clients['A.admin'].get(path),
      (r) => r.body?.complete === true,
      20_000,
    );
    return `${student}/exports/${started.requestId}`;
  },
  // A previewed roster import of district A with nothing to apply (written as an upload's preview
  // would be): the matrix checks who may read and apply it, not the CSV reading.
  rosterImport: async () => {
    const id = randomUUID();
    const db = new pg.Client({ connectionString: backend.postgres.url });
    await db.connect();
    try {
      await db.query(
        `insert into identity.roster_imports (id, tenant_id, created_by, mode, status, plan, counts)
         select $1, id, $1, 'bulk', 'previewed', '{"users":[],"classes":[]}', '{}'
           from identity.tenants where email_domains @> array[$2]::text[]`,
        [id, DOMAIN.A],
      );
    } finally {
      await db.end();
    }
    return id;
  },
  commonDraft: async () =>
    ok(
      await clients['A.admin'].post('/api/common-assessments', {
        title: 'District benchmark',
        questions: [QUESTIONS[0]],
      }),
      201,
      'common assessment',
    ).id,
  commonPublished: async () => {
    const id = ok(
      await clients['A.admin'].post('/api/common-assessments', {
        title: 'District benchmark',
        questions: [QUESTIONS[0]],
      }),
      201,
      'common assessment',
    ).id;
    ok(await clients['A.admin'].post(`/api/common-assessments/${id}/publish`, {}), 200, 'publish');
    return id;
  },
  bankShared: async () =>
    ok(await clients['A.owner'].post('/api/bank/items', { ...QUESTIONS[0], visibility: 'district' }), 201, 'bank item')
      .id,
  ltiRegistration: async () =>
    ok(await clients['A.admin'].post('/api/integrations/lti/registrations', ltiRegistration()), 201, 'lti registration')
      .id,
  // Written as the invitation mail's link would be (email_tokens, purpose invite): the matrix
  // checks who may revoke it, not the mail.
  invitation: async () => {
    const hash = randomBytes(32).toString('hex');
    const db = new pg.Client({ connectionString: backend.postgres.url });
    await db.connect();
    try {
      await db.query(
        `insert into identity.email_tokens (token_hash, purpose, tenant_id, email, payload, expires_at)
         select $1, 'invite', id, $2, '{"role":"teacher"}', now() + interval '7 days'
           from identity.tenants where email_domains @> array[$3]::text[]`,
        [hash, `invited.${hash.slice(0, 8)}@elsewhere-matrix.example.com`, DOMAIN.A],
      );
    } finally {
      await db.end();
    }
    return hash;
  },
};

async function take(kind: Throwaway, used: Set<Throwaway>): Promise<string> {
  used.add(kind);
  let value = throwaways.get(kind);
  if (value === undefined) {
    value = await makers[kind]();
    throwaways.set(kind, value);
  }
  return value;
}

function profile(actor: Actor) {
  const u = clients[actor === 'anon' ? 'A.stranger' : actor === 'signed-out' ? 'A.owner' : actor].user!;
  return { firstName: u.firstName, lastName: u.lastName, email: u.email };
}

/** Another client with the same cookies (what it is sent back lands in the copy only). */
function copyOf(c: Client): Client {
  const copy = new Client(backend.url);
  for (const [k, v] of c.cookies) copy.cookies.set(k, v);
  copy.user = c.user;
  return copy;
}

/** Sends one cell's request; a server-sent event stream is closed once its headers arrived. */
async function send(client: Client, method: string, path: string, body: unknown, stream: boolean): Promise<Reply> {
  if (!stream) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
    });
    try {
      return await Promise.race([client.request(method, path, body), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CALL_TIMEOUT_MS);
  try {
    const res = await fetch(new URL(path, backend.url), {
      method,
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
      signal: controller.signal,
    });
    if (/text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
      controller.abort();
      return { status: res.status, body: '', headers: res.headers };
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  } finally {
    clearTimeout(timer);
  }
}

/** How many answers were right or wrong: a number, not a key. */
const COUNTS = /^(correctAnswers|incorrectAnswers)$/;

/** Keys matching FORBIDDEN_KEY anywhere in a JSON value, as paths. */
function forbiddenKeys(value: unknown, allowed: RegExp | undefined, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenKeys(v, allowed, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(FORBIDDEN_KEY.test(k) && !allowed?.test(k) && !(COUNTS.test(k) && typeof v === 'number') ? [`${at}.${k}`] : []),
    ...forbiddenKeys(v, allowed, `${at}.${k}`),
  ]);
}

/** What is wrong with a 2xx body for this actor (empty: nothing). */
function leaks(entry: MatrixEntry, actor: Actor, res: Reply): string[] {
  const text = typeof res.body === 'string' ? res.body : (JSON.stringify(res.body) ?? '');
  const found = forbiddenKeys(typeof res.body === 'object' ? res.body : undefined, entry.keys?.[actor]).map(
    (p) => `forbidden key ${p}`,
  );
  if (/\$argon2|\$2[aby]\$\d\d\$/.test(text)) found.push('a password hash');
  if (/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]+/.test(text)) found.push('a JWT');
  for (const [s, what] of forbidden[actor]) if (text.includes(s)) found.push(what);
  return found;
}

/** What is wrong with one cell's reply (empty: nothing); a 2xx uses up its throwaways. */
function check(entry: MatrixEntry, actor: Actor, res: Reply, used: Set<Throwaway>): string[] {
  cells += 1;
  const failures: string[] = [];
  const expected = entry.expect[actor];
  if (res.status !== expected)
    failures.push(`${actor}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body ?? '').slice(0, 160)}`);
  if (res.status >= 200 && res.status < 300) {
    for (const what of leaks(entry, actor, res)) failures.push(`${actor}: ${res.status} body holds ${what}`);
    for (const kind of used) if (!REUSABLE.has(kind)) throwaways.delete(kind);
  }
  return failures;
}

function accessOf(description: string | undefined): Access | undefined {
  const m = /Access: ([^.]+)\./.exec(description ?? '');
  if (!m) return undefined;
  if (m[1] === 'anyone') return 'anyone';
  if (m[1] === 'any signed-in user') return 'signed-in';
  return m[1]!.split(', ') as Access;
}

function documentedRoutes(): Map<string, Access | undefined> {
  const routes = new Map<string, Access | undefined>();
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (METHODS.includes(method)) routes.set(`${method.toUpperCase()} ${path}`, accessOf(op.description));
  return routes;
}

beforeAll(async () => {
  backend = await startBackend({
    DEMO_SEED: 'false',
    RATE_LIMIT_JOIN_PER_MINUTE: '10000',
    RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE: '10000',
    RATE_LIMIT_GENERATION_PER_MINUTE: '10000',
  });
  const anon = new Client(backend.url);
  doc = ok(await anon.get('/api/openapi.json'), 200, 'openapi.json');
  await makeDistrict('District A', DOMAIN.A);
  await makeDistrict('District B', DOMAIN.B);
  const tag = Date.now().toString(36);
  const person = (domain: string, role: 'teacher' | 'student', firstName: string) =>
    joinDistrict(backend, role, { domain, firstName, lastName: `${firstName}${tag}` });
  const [owner, teacher, student, classmate, stranger, bTeacher, bStudent] = await Promise.all([
    person(DOMAIN.A, 'teacher', 'Olive'),
    person(DOMAIN.A, 'teacher', 'Tom'),
    person(DOMAIN.A, 'student', 'Stu'),
    person(DOMAIN.A, 'student', 'Cleo'),
    person(DOMAIN.A, 'student', 'Xena'),
    person(DOMAIN.B, 'teacher', 'Bea'),
    person(DOMAIN.B, 'student', 'Bob'),
  ]);
  Object.assign(clients, {
    anon,
    'A.owner': owner,
    'A.teacher': teacher,
    'A.student': student,
    'A.classmate': classmate,
    'A.stranger': stranger,
    'A.admin': await makeAdmin(DOMAIN.A, `Admina${tag}`),
    'B.teacher': bTeacher,
    'B.student': bStudent,
    'B.admin': await makeAdmin(DOMAIN.B, `Adminb${tag}`),
  });
  for (const actor of ACTORS) if (ROLE_OF[actor]) expect(clients[actor].user, actor).toBeDefined();
  const tenantA = owner.user!.tenantId;
  for (const a of ['A.teacher', 'A.student', 'A.classmate', 'A.stranger', 'A.admin'] as const)
    expect(clients[a].user!.tenantId, a).toBe(tenantA);
  for (const b of ['B.teacher', 'B.student', 'B.admin'] as const) {
    expect(clients[b].user!.tenantId, b).toBe(bTeacher.user!.tenantId);
    expect(clients[b].user!.tenantId, b).not.toBe(tenantA);
  }

  // Tenant A: class C1 with the student and the classmate, assessment A1; the student submits
  // (1 of 2 right: below standard, so there is support practice), the classmate only answers.
  const c1 = ok(await owner.post('/api/classes', { name: 'Fractions', subject: 'Math', period: '4' }), 201, 'C1');
  for (const s of [student, classmate]) ok(await s.post('/api/classes/join', { joinCode: c1.joinCode }), 200, 'join');
  const a1 = await seededAssessment(owner, c1.id);
  await availableTo(student, a1.id);
  await availableTo(classmate, a1.id);
  for (const [i, answer] of ['3/4', 'False'].entries())
    ok(
      await student.post('/api/responses', { assessmentId: a1.id, questionId: a1.questionIds[i], answer }),
      200,
      'save',
    );
  ok(
    await classmate.post('/api/responses', { assessmentId: a1.id, questionId: a1.questionIds[0], answer: '1/2' }),
    200,
    'save',
  );
  const r1 = ok(await student.post('/api/results', { assessmentId: a1.id }), 201, 'submit').id as string;
  // Tenant B: the same, so that its lists hold something tenant A must never see.
  const cb = await createClass(bTeacher, 'Fractions B');
  ok(await bStudent.post('/api/classes/join', { joinCode: cb.joinCode }), 200, 'join B');
  const ab = await seededAssessment(bTeacher, cb.id);
  await availableTo(bStudent, ab.id);
  ok(
    await bStudent.post('/api/responses', { assessmentId: ab.id, questionId: ab.questionIds[0], answer: '3/4' }),
    200,
    'save B',
  );
  const rb = ok(await bStudent.post('/api/results', { assessmentId: ab.id }), 201, 'submit B').id as string;

  // The read models have caught up: practice, results of both districts.
  for (const [c, path] of [
    [owner, `/api/support-content/${r1}`],
    [owner, `/api/classes/${c1.id}/results`],
    [clients['A.admin'], `/api/classes/${c1.id}/results`],
    [bTeacher, `/api/support-content/${rb}`],
    [bTeacher, `/api/classes/${cb.id}/results`],
  ] as const) {
    const res = await eventually(
      () => c.get(path),
      (r) => r.status === 200 && (!Array.isArray(r.body) || r.body.length === 1),
      30_000,
    );
    expect(res.status, path).toBe(200);
  }

  f = {
    c1: { id: c1.id, name: c1.name, subject: c1.subject, period: c1.period },
    a1,
    r1,
    s1: student.user!.id,
    loginTarget: { email: (await signUp(backend.url, 'teacher')).user!.email, password: PASSWORD },
  };

  // What each actor must never see: the other district's people and objects; for a student, the
  // other students of their district and their results; for a colleague, the owner's class.
  const people = (...actors: Actor[]) =>
    actors.flatMap((a) => {
      const u = clients[a].user!;
      return [
        [u.id, `${a}'s id`],
        [u.email, `${a}'s email`],
        [u.lastName, `${a}'s name`],
      ] as [string, string][];
    });
  const objectsA: [string, string][] = [
    [c1.id, 'class C1'],
    [a1.id, 'assessment A1'],
    ...a1.questionIds.map((q): [string, string] => [q, 'a question of A1']),
    [r1, "A.student's result"],
  ];
  const tenantAll = {
    A: [...people('A.owner', 'A.teacher', 'A.student', 'A.classmate', 'A.stranger', 'A.admin'), ...objectsA],
    B: [
      ...people('B.teacher', 'B.student', 'B.admin'),
      [cb.id, 'class CB'],
      [ab.id, 'assessment AB'],
      [rb, "B.student's result"],
    ] as [string, string][],
  };
  const set = (...lists: [string, string][][]) => new Map(lists.flat());
  forbidden.anon = set(tenantAll.A, tenantAll.B);
  forbidden['signed-out'] = forbidden.anon;
  for (const a of ['B.admin', 'B.teacher', 'B.student'] as const) forbidden[a] = set(tenantAll.A);
  forbidden['A.admin'] = set(tenantAll.B);
  forbidden['A.owner'] = set(tenantAll.B);
  forbidden['A.teacher'] = set(tenantAll.B, people('A.student', 'A.classmate', 'A.stranger'), objectsA);
  forbidden['A.student'] = set(tenantAll.B, people('A.classmate', 'A.stranger'));
  forbidden['A.classmate'] = set(tenantAll.B, people('A.student', 'A.stranger'), [[r1, "A.student's result"]]);
  // The stranger may browse C1 (a class of their district they could join), nothing in it.
  forbidden['A.stranger'] = set(
    tenantAll.B,
    people('A.student', 'A.classmate'),
    objectsA.filter(([id]) => id !== c1.id),
  );
}, 240_000);

afterAll(async () => {
  await backend?.stop();
});

describe('the matrix covers the document', () => {
  it('when the OpenAPI document lists its routes, then each has exactly one matrix entry, with the access the document states', () => {
    const documented = documentedRoutes();
    expect(
      [...documented.keys()].filter((r) => !(r in MATRIX)),
      'routes without a matrix entry',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((r) => !documented.has(r)),
      'matrix entries for routes not in the document',
    ).toEqual([]);
    const sorted = (a: Access | undefined) => (Array.isArray(a) ? [...a].sort() : a);
    for (const [route, access] of documented) expect(sorted(MATRIX[route]!.access), route).toEqual(sorted(access));
  });
});

describe('every route × every actor', () => {
  it.each(Object.keys(MATRIX))('%s', async (route) => {
    expect(documentedRoutes().has(route), `${route} is not in the document`).toBe(true);
    const entry = MATRIX[route]!;
    const [method] = route.split(' ') as [string];
    const failures: string[] = [];
    for (const actor of ACTORS) {
      if (actor === 'signed-out') continue; // all routes at once, below
      const used = new Set<Throwaway>();
      const ctx: CellContext = { f, take: (kind) => take(kind, used), profile };
      const { path, body } = await entry.request(ctx, actor);
      const client =
        entry.session === undefined
          ? clients[actor]
          : actor === 'anon'
            ? new Client(backend.url)
            : entry.session === 'copy'
              ? copyOf(clients[actor])
              : await signIn(clients[actor].user!.email);
      const res = await send(client, method, path, body, entry.stream ?? false);
      failures.push(...check(entry, actor, res, used));
    }
    expect(failures, `${route} (${method} ${entry.expect['A.owner']} for the owner)`).toEqual([]);
  });

  // The revoked session is tried on every route within a second or two of its sign-out: a session
  // that keeps working until its access token expires (or a cache does) fails here.
  it('when a session has just signed out, then every route answers its cookies as signed out, at once', async () => {
    const prepared: { route: string; entry: MatrixEntry; path: string; body: unknown; used: Set<Throwaway> }[] = [];
    for (const route of Object.keys(MATRIX)) {
      const entry = MATRIX[route]!;
      const used = new Set<Throwaway>();
      const { path, body } = await entry.request({ f, take: (kind) => take(kind, used), profile }, 'signed-out');
      prepared.push({ route, entry, path, body, used });
    }
    const live = await signIn(clients['A.owner'].user!.email);
    const dead = copyOf(live);
    ok(await live.post('/api/auth/logout'), 204, 'sign-out');
    const replies = await Promise.all(
      prepared.map(({ route, path, body, entry }) =>
        send(copyOf(dead), route.split(' ')[0]!, path, body, entry.stream ?? false),
      ),
    );
    const failures = prepared.flatMap(({ route, entry, used }, i) =>
      check(entry, 'signed-out', replies[i]!, used).map((failure) => `${route}: ${failure}`),
    );
    expect(failures).toEqual([]);
  });

  it('when the matrix has run, then the owner’s class, assessment and result are as they were', async () => {
    const owner = clients['A.owner'];
    expect((await owner.get(`/api/classes/${f.c1.id}`)).body).toMatchObject({ name: f.c1.name });
    const students = (await owner.get(`/api/classes/${f.c1.id}/students`)).body as { student: { id: string } }[];
    expect(students.map((m) => m.student.id)).toEqual(
      expect.arrayContaining([clients['A.student'].user!.id, clients['A.classmate'].user!.id]),
    );
    expect((await owner.get(`/api/assessments/${f.a1.id}/questions`)).body.map((q: { id: string }) => q.id)).toEqual(
      f.a1.questionIds,
    );
    expect((await clients['A.student'].get(`/api/results/${f.r1}`)).body).toMatchObject({ percentage: '50.00' });
    // The size of the matrix, for the record.
    expect(cells).toBe(Object.keys(MATRIX).length * ACTORS.length);
  });
});
