// Seeds the benchmark through the gateway, like the web app would: 1 teacher, 1 class, 2 assessments
// of 10 multiple-choice questions (offline generation; one is for the warm-up), assigned, and N
// students signed up and joined. Writes bench/.seed.json with each student's cookies and the
// question ids and options. A student signs up as a person does (docs/security.md): the sign-up
// answers 202 and mails a link, which creates the account and signs in when opened; the links are
// read from the local mailbox of the stack or all-in-one (DATA_DIR/mailbox/index.json, SMTP_URL
// unset), a batch of sign-ups at a time.
// Node built-ins only. Usage: BASE_URL=http://127.0.0.1:8080 BENCH_DATA_DIR=<its DATA_DIR> node bench/seed.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from './session.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 200);
const PARALLEL = Number(process.env.BENCH_SEED_PARALLEL ?? 10);
const QUESTIONS = 10;
const OUT = process.env.BENCH_SEED_FILE ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '.seed.json');
const DEADLINE = Date.now() + Number(process.env.BENCH_SEED_TIMEOUT_MS ?? 5 * 60_000);
const RUN = Date.now().toString(36);
// The DATA_DIR of the stack or all-in-one under test: its mailbox holds the sign-up links.
const MAILBOX_INDEX = path.join(path.resolve(process.env.BENCH_DATA_DIR ?? '.data'), 'mailbox', 'index.json');
// Sign-ups whose links are read together: well under the 500 newest mails the mailbox keeps.
const BATCH = 200;
const DOMAIN = `bench-${RUN}.example.com`;
// The teacher is the Demo District's (bench/run.mjs starts the stack with DEMO_SEED=true and
// DEMO_PASSWORD, and passes the password on as BENCH_DEMO_PASSWORD): a teacher with their own space
// is on the Free Trial, whose 50 students would not hold the class of 200. A sign-up at the
// district's domain makes no account until its mailed link is opened (docs/security.md), so the
// seed signs in as the district's demo teacher instead.
const TEACHER_EMAIL = 'teacher@demo.checkpoint.school';
const DEMO_PASSWORD = process.env.BENCH_DEMO_PASSWORD;
// More assessments for the same class (bench/bell.mjs runs one class size on each).
const EXTRA_ASSESSMENTS = Number(process.env.BENCH_EXTRA_ASSESSMENTS ?? 0);

const CONTENT = [
  'Photosynthesis is the process plants use to make their own food from light.',
  'Chlorophyll is the green pigment that absorbs light energy inside the leaf.',
  'The chloroplast is the part of the cell where photosynthesis takes place.',
  'Plants take in carbon dioxide from the air through tiny pores called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
  'Glucose is the sugar that plants produce and store as energy.',
  'Oxygen is released into the air as a product of photosynthesis.',
  'Sunlight provides the energy that drives the whole reaction.',
  'Phloem carries the sugars made in the leaves to the rest of the plant.',
  'Respiration is the process that releases the energy stored in glucose.',
  'Starch is the form in which many plants store extra glucose for later.',
  'Autotrophs are organisms that make their own food, such as green plants.',
  'Consumers depend on producers because they cannot make their own food.',
  'The Calvin cycle uses carbon dioxide to build sugar molecules in the stroma.',
].join(' ');

function timeLeft(what) {
  if (Date.now() > DEADLINE) throw new Error(`seed: out of time while ${what}`);
}

function expectStatus(res, status, what) {
  if (res.status !== status) throw new Error(`seed: ${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Polls fn until check passes, bounded by the seed deadline and `ms`. */
async function eventually(what, fn, check, ms = 60_000) {
  const end = Math.min(DEADLINE, Date.now() + ms);
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const value = await fn();
    if (check(value)) return value;
    if (Date.now() > end)
      throw new Error(`seed: timed out waiting for ${what}: ${JSON.stringify(value.body ?? value)}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** The sign-up links in the mailbox by address (the newest each), or none while it has no index yet. */
function mailedSignUpLinks() {
  let entries;
  try {
    entries = JSON.parse(readFileSync(MAILBOX_INDEX, 'utf8'));
  } catch {
    return new Map();
  }
  const links = new Map();
  // Newest first: the first link seen for an address is its newest.
  for (const entry of entries) {
    const link = (entry.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []).find(
      (l) => new URL(l).pathname === '/verify-email',
    );
    for (const to of entry.to) if (link && !links.has(to)) links.set(to, link);
  }
  return links;
}

/**
 * Signs up students `numbers` (202 each: a link is mailed), waits until every link is in the
 * mailbox (one read of its index for them all, every 200 ms), then opens each link (201: the
 * account is made and signed in). Returns their sessions, in order.
 */
async function signUpStudents(numbers) {
  const people = numbers.map((n) => ({ n, email: `student.${n}.${RUN}@${DOMAIN}` }));
  await pool(people, PARALLEL, async ({ n, email }) => {
    const s = new Session(BASE_URL, { beforeRequest: timeLeft });
    const res = await s.post('/api/auth/simple-signup', {
      firstName: 'Sam',
      lastName: `Student${n}`,
      email,
      password: 'correct horse battery staple',
      role: 'student',
    });
    expectStatus(res, 202, `sign-up of student ${n}`);
  });
  const links = await eventually(
    `the sign-up links of students ${numbers[0]}–${numbers.at(-1)} in ${MAILBOX_INDEX}`,
    async () => mailedSignUpLinks(),
    (found) => people.every(({ email }) => found.has(email)),
  );
  return pool(people, PARALLEL, async ({ n, email }) => {
    const s = new Session(BASE_URL, { beforeRequest: timeLeft });
    const token = new URL(links.get(email)).searchParams.get('token');
    s.user = expectStatus(await s.post('/api/auth/email/verify', { token }), 201, `sign-up link of student ${n}`).user;
    return s;
  });
}

/** The Demo District's teacher, signed in (the stack was started with DEMO_PASSWORD). */
async function demoTeacher() {
  if (!DEMO_PASSWORD)
    throw new Error(
      'seed: set BENCH_DEMO_PASSWORD to the DEMO_PASSWORD the stack was started with (bench/run.mjs does)',
    );
  const s = new Session(BASE_URL, { beforeRequest: timeLeft });
  const res = await s.post('/api/auth/simple-login', { email: TEACHER_EMAIL, password: DEMO_PASSWORD });
  s.user = expectStatus(res, 200, `sign-in of ${TEACHER_EMAIL}`).user;
  return s;
}

/** Runs fn over items with at most `limit` in flight. */
async function pool(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** An assessment of QUESTIONS multiple-choice questions for the class, generated and assigned. */
async function assessmentFor(teacher, cls, title) {
  const created = await eventually(
    'the class to reach the assessment service',
    () =>
      teacher.post('/api/assessments', {
        title,
        contentToAssess: CONTENT,
        questionType: 'multiple_choice',
        numberOfQuestions: QUESTIONS,
        description: 'Benchmark assessment',
        classId: cls.id,
      }),
    (r) => r.status !== 404,
  );
  const assessment = expectStatus(created, 201, 'assessment creation');
  const ready = await eventually(
    'question generation',
    () => teacher.get(`/api/assessments/${assessment.id}`),
    (r) => r.status === 200 && r.body.generationStatus !== 'generating',
    120_000,
  );
  if (ready.body.generationStatus !== 'ready')
    throw new Error(`seed: generation ${ready.body.generationStatus}: ${ready.body.generationError}`);
  const questions = expectStatus(await teacher.get(`/api/assessments/${assessment.id}/questions`), 200, 'questions');
  if (questions.length !== QUESTIONS) throw new Error(`seed: expected ${QUESTIONS} questions, got ${questions.length}`);
  expectStatus(await teacher.post(`/api/assessments/${assessment.id}/assign`), 200, 'assign');
  return {
    id: assessment.id,
    provider: ready.body.generationProvider,
    questions: questions.map((q) => ({ id: q.id, options: q.options, correctAnswer: q.correctAnswer })),
  };
}

async function main() {
  const started = Date.now();
  const teacher = await demoTeacher();
  if (teacher.user.accountType !== 'district')
    throw new Error(`seed: the teacher is not in the Demo District (${teacher.user.accountType}); is DEMO_SEED on?`);
  const cls = expectStatus(
    await teacher.post('/api/classes', { name: `Bench ${RUN}`, subject: 'Science', period: '1' }),
    201,
    'class creation',
  );
  // The class reaches the assessment service through Kafka: retry while it answers 404.
  const measured = await assessmentFor(teacher, cls, 'Photosynthesis check');
  const warmup = await assessmentFor(teacher, cls, 'Photosynthesis warm-up');
  const extra = [];
  for (let i = 1; i <= EXTRA_ASSESSMENTS; i++) extra.push(await assessmentFor(teacher, cls, `Photosynthesis ${i}`));
  console.log(
    `seed: teacher, class ${cls.joinCode}, ${2 + extra.length} assessments with ${QUESTIONS} questions (${measured.provider}), assigned`,
  );

  const students = [];
  for (let first = 1; first <= STUDENTS; first += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, STUDENTS - first + 1) }, (_, i) => first + i);
    const batch = await signUpStudents(numbers);
    await pool(batch, PARALLEL, async (s, i) =>
      expectStatus(await s.post('/api/classes/join', { joinCode: cls.joinCode }), 200, `join of student ${numbers[i]}`),
    );
    students.push(...batch);
    console.log(`seed: ${students.length}/${STUDENTS} students signed up (by their mailed links) and joined`);
  }
  // Memberships reach the assessment service asynchronously: wait until every student sees it.
  await pool(students, PARALLEL, (s, i) =>
    eventually(
      `the assessment to be available to student ${i + 1}`,
      () => s.get('/api/student/available-assessments'),
      (r) => r.status === 200 && [measured, warmup, ...extra].every(({ id }) => r.body.some((a) => a.id === id)),
    ),
  );

  const seed = {
    baseUrl: BASE_URL,
    classId: cls.id,
    // The class's teacher, who watches its results during the run (bench/visibility.mjs).
    teacher: {
      id: teacher.user.id,
      session: teacher.cookies.get('cp_session'),
      refresh: teacher.cookies.get('cp_refresh'),
      csrf: teacher.cookies.get('cp_csrf'),
    },
    assessmentId: measured.id,
    questions: measured.questions,
    // Another assessment of the class, taken before the measured run (bench/run.mjs, warm-up).
    warmup: { assessmentId: warmup.id, questions: warmup.questions },
    extra: extra.map((a) => ({ assessmentId: a.id, questions: a.questions })),
    students: students.map((s) => ({
      id: s.user.id,
      session: s.cookies.get('cp_session'),
      refresh: s.cookies.get('cp_refresh'),
      csrf: s.cookies.get('cp_csrf'),
    })),
  };
  for (const [i, st] of seed.students.entries())
    if (!st.session || !st.csrf) throw new Error(`seed: student ${i + 1} has no session or csrf cookie`);
  writeFileSync(OUT, JSON.stringify(seed));
  console.log(`seed: ${STUDENTS} students ready in ${((Date.now() - started) / 1000).toFixed(1)} s → ${OUT}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
