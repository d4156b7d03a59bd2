// Analytics calls through the gateway: a class's three results reach the teacher's results, grid,
// assessment page, All Students, reports, exports and the live stream; the district admin sees the
// district; everyone else gets 401 / 403 / 404 (a colleague of the same district, a teacher of
// another tenant, a student), for every analytics route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, eventually, joinDistrict, signUp, startBackend, type Backend, type ClassJson } from './helpers.ts';

const DISTRICT = 'demo.checkpoint.school';
const DEMO_PASSWORD = 'demo-password-for-tests';
const UUID_OF_NOTHING = '00000000-0000-4000-8000-000000000000';

let backend: Backend;
let anon: Client;
let owner: Client;
let colleague: Client;
let outsider: Client;
let admin: Client;
let students: Client[];
let cls: ClassJson;
let assessmentId: string;

const QUESTIONS = [
  {
    questionText: 'What is 1/2 + 1/4?',
    questionType: 'multiple_choice',
    options: ['3/4', '2/6', '1/8', '2/4'],
    correctAnswer: '3/4',
  },
  { questionText: 'A half is more than a third.', questionType: 'true_false', correctAnswer: 'True' },
];
/** Each student's answers: 2/2 = 100 %, 1/2 = 50 %, 0/2 = 0 %. */
const ANSWERS = [
  ['3/4', 'True'],
  ['3/4', 'False'],
  ['1/8', 'False'],
];

async function signIn(email: string, password: string): Promise<Client> {
  const c = new Client(backend.url);
  const res = await c.post('/api/auth/simple-login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return c;
}

/** The live stream of a class through the gateway: resolves with the first `result` event's data. */
async function firstLiveResult(c: Client, classId: string, timeoutMs = 15_000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const res = await fetch(new URL(`/api/dashboard/live?classId=${classId}`, backend.url), {
    headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const opened = { done: false };
  const event = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value, { stream: true });
        opened.done = true;
        const m = /event: result\ndata: (.*)\n\n/.exec(text);
        if (m) return JSON.parse(m[1]!) as { classId: string; assessmentId: string; resultId?: string };
      }
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  })();
  return { event, opened };
}

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', DEMO_PASSWORD, RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  anon = new Client(backend.url);
  owner = await joinDistrict(backend, 'teacher', { domain: DISTRICT });
  colleague = await joinDistrict(backend, 'teacher', { domain: DISTRICT });
  outsider = await signUp(backend.url, 'teacher');
  admin = await signIn(`admin@${DISTRICT}`, DEMO_PASSWORD);
  students = await Promise.all(
    ['Ada', 'Ben', 'Cy'].map((firstName) => joinDistrict(backend, 'student', { domain: DISTRICT, firstName })),
  );
  cls = (await owner.post('/api/classes', { name: 'Fractions', subject: 'Math', period: '4' })).body;
  for (const s of students) expect((await s.post('/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
  const created = await eventually(
    () =>
      owner.post('/api/assessments', {
        title: 'Fractions check',
        contentToAssess:
          'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
          'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
          'A unit fraction has a numerator of one. A number line shows where each fraction lies between zero and one.',
        questionType: 'multiple_choice',
        numberOfQuestions: 2,
        classId: cls.id,
      }),
    (r) => r.status !== 404,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  assessmentId = created.body.id;
  await eventually(
    () => owner.get(`/api/assessments/${assessmentId}`),
    (r) => r.body.generationStatus !== 'generating',
    30_000,
  );
  for (const q of (await owner.get(`/api/assessments/${assessmentId}/questions`)).body)
    expect((await owner.del(`/api/questions/${q.id}`)).status).toBe(204);
  for (const q of QUESTIONS)
    expect((await owner.post(`/api/assessments/${assessmentId}/questions`, q)).status).toBe(201);
  expect((await owner.post(`/api/assessments/${assessmentId}/assign`)).status).toBe(200);
}, 180_000);

afterAll(() => backend?.stop());

describe('a class submits, the teacher sees it', () => {
  it('when three students submit, then the live stream tells the teacher and every results view holds the three', async () => {
    // The class is known to analytics once the grid answers.
    await eventually(
      () => owner.get(`/api/classes/${cls.id}/grid`),
      (r) => r.status === 200 && r.body.students.length === 3 && r.body.assessments.length === 1,
    );
    const live = await firstLiveResult(owner, cls.id);
    await eventually(
      async () => live.opened.done,
      (opened) => opened,
    );
    const questions = (await owner.get(`/api/assessments/${assessmentId}/questions`)).body as { id: string }[];
    for (const [i, s] of students.entries()) {
      await eventually(
        () => s.get('/api/student/available-assessments'),
        (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === assessmentId),
      );
      for (const [j, q] of questions.entries())
        expect(
          (await s.post('/api/responses', { assessmentId, questionId: q.id, answer: ANSWERS[i]![j] })).status,
        ).toBe(200);
      expect((await s.post('/api/results', { assessmentId })).status).toBe(201);
    }
    const notice = await live.event;
    expect(notice).toMatchObject({ classId: cls.id, assessmentId });

    const results = await eventually(
      () => owner.get(`/api/classes/${cls.id}/results`),
      (r) => r.status === 200 && r.body.length === 3,
    );
    expect(
      results.body.map((r: { student: { firstName: string }; score: number }) => [r.student.firstName, r.score]).sort(),
    ).toEqual([
      ['Ada', 100],
      ['Ben', 50],
      ['Cy', 0],
    ]);
    const all = await owner.get('/api/all-results');
    expect(all.body).toHaveLength(3);
    expect(all.headers.get('x-total-count')).toBe('3');

    const grid = (await owner.get(`/api/classes/${cls.id}/grid`)).body;
    expect(grid.cells).toHaveLength(3);

    const page = (await owner.get(`/api/assessments/${assessmentId}/results`)).body;
    expect(page.summary).toMatchObject({ submitted: 3, classSize: 3, averageScore: 50 });
    expect(page.questions.map((q: { shareCorrect: number }) => q.shareCorrect)).toEqual([2 / 3, 1 / 3]);

    const overview = (await owner.get('/api/dashboard/students')).body;
    expect(overview.stats).toEqual({ totalStudents: 3, aboveStandard: 1, atStandard: 0, belowStandard: 2 });

    const report = (await owner.get(`/api/reports?classIds=${cls.id}&timeframe=week&type=detailed`)).body;
    expect(report.totalRows).toBe(3);
    const csv = await owner.get(`/api/reports/export?classIds=${cls.id}&timeframe=week&type=detailed&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0]!.split(' ')[0])
        .sort(),
    ).toEqual(['Ada', 'Ben', 'Cy']);

    expect((await owner.get('/api/dashboard/usage')).body).toEqual({ classes: 1, students: 3, assessments: 1 });
  });

  it('when the district admin reads the stats and the district, then they include this class’s people and results', async () => {
    const stats = await eventually(
      () => admin.get('/api/admin/stats'),
      (r) => r.status === 200 && r.body.totalResponses >= 3,
    );
    expect(stats.body.totalStudents).toBeGreaterThanOrEqual(3);
    expect(stats.body.totalClasses).toBeGreaterThanOrEqual(1);
    expect(stats.body.recentSignups[0]).toEqual(
      expect.objectContaining({ role: expect.any(String), email: expect.any(String) }),
    );
    expect((await admin.get(`/api/classes/${cls.id}/results`)).body).toHaveLength(3);
    expect((await admin.get('/api/all-results')).body.length).toBeGreaterThanOrEqual(3);
  });
});

describe('who may call', () => {
  const byId = () => [
    `/api/classes/${cls.id}/results`,
    `/api/classes/${cls.id}/grid`,
    `/api/assessments/${assessmentId}/results`,
    `/api/dashboard/students?classId=${cls.id}`,
    `/api/dashboard/live?classId=${cls.id}`,
    `/api/reports?classIds=${cls.id}`,
    `/api/reports/export?classIds=${cls.id}&format=csv`,
  ];
  const lists = [
    '/api/all-results',
    '/api/dashboard/students',
    '/api/dashboard/usage',
    '/api/reports',
    '/api/admin/stats',
  ];

  it('when signed out, then every analytics call answers 401', async () => {
    for (const p of [...byId(), ...lists]) expect((await anon.get(p)).status, p).toBe(401);
  });

  it('when a student calls, then 403, even for their own class', async () => {
    for (const p of [...byId(), ...lists]) expect((await students[0]!.get(p)).status, p).toBe(403);
  });

  it('when a colleague of the same district or a teacher of another tenant names the class or assessment, then 404', async () => {
    for (const other of [colleague, outsider]) for (const p of byId()) expect((await other.get(p)).status, p).toBe(404);
    expect((await owner.get(`/api/classes/${UUID_OF_NOTHING}/results`)).status).toBe(404);
    expect((await owner.get('/api/assessments/not-an-id/results')).status).toBe(404);
  });

  it('when a teacher asks for the admin stats, then 403; their own lists hold only their classes', async () => {
    expect((await owner.get('/api/admin/stats')).status).toBe(403);
    expect((await colleague.get('/api/all-results')).body).toEqual([]);
    expect((await outsider.get('/api/dashboard/students')).body.total).toBe(0);
  });
});
