// `npm test -- schemathesis`: property-based tests of the whole HTTP API from its own OpenAPI
// document. Installs schemathesis (PyPI, pinned) into a venv under .cache/, starts the all-in-one on
// a fresh database, seeds a teacher and a student who share a class and assessments, then runs
// schemathesis as each of them and as the admin of the demo district (the district administration
// routes) against /api/openapi.json: no server error, every response as the
// document says, every request the document allows accepted and every one it forbids refused,
// every undeclared method 405. Writes `{ passed, failed }` (one test per operation and role) to
// the file named by --summary. SCHEMATHESIS_INCLUDE (a regex of operation names) runs only those:
// `SCHEMATHESIS_INCLUDE='/api/bank' npx tsx e2e/schemathesis/run.ts`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, eventually, signUp, startBackend, type Backend } from '../api/helpers.ts';

const SCHEMATHESIS_VERSION = '4.32.5';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const venv = path.join(root, '.cache', `schemathesis-${SCHEMATHESIS_VERSION}`);

/**
 * Operations left out, and why: each would end the session the run is authenticated with (the
 * cookies below), so every later case would test only 401s.
 */
const EXCLUDED = [
  'POST /api/auth/logout', // revokes the session and clears its cookies
];

/**
 * What the document cannot state (multiple choice options that differ, an answer among them):
 * schema-valid cases are made to keep it, so that a refusal of one still fails the run.
 */
const HOOKS = path.join(root, 'e2e', 'schemathesis', 'hooks.py');

/** Per run: cases per operation and phase, and a bound on the whole run (seconds). */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 25);
const MAX_TIME_SECONDS = Number(process.env.SCHEMATHESIS_MAX_TIME ?? 110);

interface Python {
  command: string;
  env: NodeJS.ProcessEnv;
}

/** schemathesis==VERSION in .cache/schemathesis-VERSION (a venv, or `pip --target` without venv). */
function installSchemathesis(): Python {
  const venvPython = path.join(venv, 'bin', 'python3');
  const target = path.join(venv, 'site');
  const marker = path.join(venv, '.installed');
  const viaTarget = { command: 'python3', env: { ...process.env, PYTHONPATH: target } };
  if (existsSync(marker)) {
    return readFileSync(marker, 'utf8') === 'target' ? viaTarget : { command: venvPython, env: process.env };
  }
  rmSync(venv, { recursive: true, force: true });
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'inherit' }).status === 0;
  const pkg = `schemathesis==${SCHEMATHESIS_VERSION}`;
  console.log(`› installing ${pkg} into ${path.relative(root, venv)}`);
  if (run('python3', ['-m', 'venv', venv]) && run(venvPython, ['-m', 'pip', 'install', '-q', pkg])) {
    writeFileSync(marker, 'venv');
    return { command: venvPython, env: process.env };
  }
  // Without python3-venv: a plain folder on PYTHONPATH.
  rmSync(venv, { recursive: true, force: true });
  if (!run('python3', ['-m', 'pip', 'install', '-q', '--target', target, pkg])) {
    throw new Error(`could not install ${pkg} from PyPI`);
  }
  writeFileSync(marker, 'target');
  return viaTarget;
}

interface Fixtures {
  teacher: Client;
  student: Client;
  /** The demo district's admin (DEMO_SEED, with the password this run chose). */
  admin: Client;
  /** The class both share, and a second one that the teacher's run may archive, empty or delete. */
  classId: string;
  spareClassId: string;
  spareJoinCode: string;
  /** Open for the student; submitted by the student (with its result); two for the teacher to edit and delete. */
  openId: string;
  openQuestionId: string;
  submittedId: string;
  resultId: string;
  /** A question of the submitted assessment (regraded on the result). */
  submittedQuestionId: string;
  editableId: string;
  editableQuestionIds: string[];
  deletableId: string;
}

/** The demo district's domain (DEMO_SEED; services/identity demo-seed). */
const DEMO_DOMAIN = 'demo.checkpoint.school';

const LESSON = {
  contentToAssess:
    'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
    'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
    'A recipe that uses half a cup of flour and a pizza cut into eight slices both show fractions. ' +
    'Bakers, carpenters and nurses measure with fractions every day. ' +
    'A number line places each fraction between zero and one, and a mixed number joins a whole number and a fraction. ' +
    'Comparing fractions with the same denominator means comparing their numerators.',
  questionType: 'multiple_choice',
  numberOfQuestions: 3,
  description: 'Quick check',
};

async function expectStatus(what: string, status: number, res: Promise<{ status: number; body: unknown }>) {
  const reply = await res;
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return reply.body as any;
}

async function seed(url: string, demoPassword: string): Promise<Fixtures> {
  const admin = new Client(url);
  await expectStatus(
    'admin sign-in',
    200,
    admin.post('/api/auth/simple-login', { email: `admin@${DEMO_DOMAIN}`, password: demoPassword }),
  );
  const teacher = await signUp(url, 'teacher');
  const student = await signUp(url, 'student');
  const newClass = async (name: string) => {
    const cls = await expectStatus('class', 201, teacher.post('/api/classes', { name, subject: 'Maths', period: '1' }));
    await expectStatus('join', 200, student.post('/api/classes/join', { joinCode: cls.joinCode }));
    return cls as { id: string; joinCode: string };
  };
  const classId = (await newClass('Fuzzed class')).id;
  const spare = await newClass('Spare class');

  const newAssessment = async (title: string) => {
    const created = await eventually(
      () => teacher.post('/api/assessments', { ...LESSON, title, classId }),
      (r) => r.status !== 404,
    );
    if (created.status !== 201) throw new Error(`assessment: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    await eventually(
      () => teacher.get(`/api/assessments/${id}`),
      (r) => r.body?.generationStatus === 'ready',
      60_000,
    );
    await expectStatus('assign', 200, teacher.post(`/api/assessments/${id}/assign`));
    const questions = await expectStatus('questions', 200, teacher.get(`/api/assessments/${id}/questions`));
    return { id, questionIds: (questions as { id: string }[]).map((q) => q.id) };
  };
  const open = await newAssessment('Open');
  const submitted = await newAssessment('Submitted');
  const editable = await newAssessment('Editable');
  const deletable = await newAssessment('Deletable');

  for (const id of [open.id, submitted.id]) {
    await eventually(
      () => student.get('/api/student/available-assessments'),
      (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === id),
    );
  }
  await expectStatus(
    'answer',
    200,
    student.post('/api/responses', { assessmentId: submitted.id, questionId: submitted.questionIds[0], answer: 'x' }),
  );
  const result = await expectStatus('submit', 201, student.post('/api/results', { assessmentId: submitted.id }));
  // The practice service learns of the result from an event.
  await eventually(
    () => student.get(`/api/support-content/${result.id}`),
    (r) => r.status === 200,
  );
  return {
    teacher,
    student,
    admin,
    classId,
    spareClassId: spare.id,
    spareJoinCode: spare.joinCode,
    openId: open.id,
    openQuestionId: open.questionIds[0]!,
    submittedId: submitted.id,
    resultId: result.id,
    submittedQuestionId: submitted.questionIds[0]!,
    editableId: editable.id,
    editableQuestionIds: editable.questionIds,
    deletableId: deletable.id,
  };
}

/** Path, query and body values pinned per operation, so that cases reach the business logic, not 404s. */
function pins(f: Fixtures): Record<string, Record<string, string>> {
  const submittedReads = [
    'GET /api/assessments/{id}/results',
    'GET /api/assessments/{id}/item-analysis',
    'GET /api/assessments/{id}/support-material/{type}',
    'POST /api/assessments/{id}/support-completion',
    'GET /api/assessments/{id}/recommendations/{type}',
  ];
  const openOnes = [
    'GET /api/assessments/{id}',
    'GET /api/assessments/{id}/questions',
    'GET /api/assessments/{id}/responses',
    'GET /api/assessments/{id}/generation',
    'POST /api/assessments/{id}/assign',
  ];
  const entries: [string, Record<string, string>][] = [
    ...[
      'GET /api/classes/{id}',
      'PUT /api/classes/{id}',
      'GET /api/classes/{id}/students',
      'POST /api/classes/{id}/join-direct',
      'GET /api/classes/{id}/assessments',
      'GET /api/classes/{id}/results',
      'GET /api/classes/{id}/grid',
      'GET /api/classes/{id}/mastery',
      'GET /api/classes/{id}/mastery/export',
      'GET /api/classes/{id}/teachers',
      'POST /api/classes/{id}/teachers',
    ].map((name): [string, Record<string, string>] => [name, { 'path.id': f.classId }]),
    ['DELETE /api/classes/{id}/teachers/{teacherId}', { 'path.id': f.spareClassId }],
    ...['DELETE /api/classes/{id}', 'PUT /api/classes/{id}/archive', 'PUT /api/classes/{id}/restore'].map(
      (name): [string, Record<string, string>] => [name, { 'path.id': f.spareClassId }],
    ),
    [
      'DELETE /api/classes/{id}/students/{studentId}',
      { 'path.id': f.spareClassId, 'path.studentId': f.student.user!.id },
    ],
    ...openOnes.map((name): [string, Record<string, string>] => [name, { 'path.id': f.openId }]),
    ...submittedReads.map((name): [string, Record<string, string>] => [name, { 'path.id': f.submittedId }]),
    ['PUT /api/assessments/{id}', { 'path.id': f.editableId }],
    ['POST /api/assessments/{id}/questions', { 'path.id': f.editableId }],
    ['POST /api/assessments/{id}/questions/from-bank', { 'path.id': f.editableId }],
    ['POST /api/assessments/{id}/generation/retry', { 'path.id': f.editableId }],
    ['DELETE /api/assessments/{id}', { 'path.id': f.deletableId }],
    ['PUT /api/questions/{id}', { 'path.id': f.editableQuestionIds[0]! }],
    ['DELETE /api/questions/{id}', { 'path.id': f.editableQuestionIds[1]! }],
    ['POST /api/questions/{id}/duplicate', { 'path.id': f.editableQuestionIds[0]! }],
    ['PUT /api/assessments/{id}/questions/order', { 'path.id': f.editableId }],
    ['GET /api/results/{id}', { 'path.id': f.resultId }],
    // The fixture's assessment allows one attempt: a retake of its result is the documented 409
    // (no_attempts_left) and changes nothing.
    ['POST /api/results/{id}/retake', { 'path.id': f.resultId }],
    [
      'PATCH /api/results/{resultId}/responses/{questionId}',
      { 'path.resultId': f.resultId, 'path.questionId': f.submittedQuestionId },
    ],
    ['PUT /api/results/{id}/feedback', { 'path.id': f.resultId }],
    ['GET /api/results/{id}/regrades', { 'path.id': f.resultId }],
    ['GET /api/assessments/{id}/to-review', { 'path.id': f.submittedId }],
    ['GET /api/mastery/students/{studentId}', { 'path.studentId': f.student.user!.id }],
    ['GET /api/support-content/{resultId}', { 'path.resultId': f.resultId }],
    ['POST /api/support-content/{resultId}/submit', { 'path.resultId': f.resultId }],
    ['POST /api/support-content/{resultId}/restart', { 'path.resultId': f.resultId }],
    ['GET /api/dashboard/students', { 'query.classId': f.classId }],
    ['GET /api/dashboard/live', { 'query.classId': f.classId }],
    ['POST /api/assessments', { 'body.classId': f.classId }],
    ['POST /api/assessments/{id}/copy', { 'path.id': f.openId, 'body.classId': f.classId }],
    ['GET /api/assessments/{id}/qti', { 'path.id': f.openId }],
    ['POST /api/qti/imports', { 'query.classId': f.classId }],
    [
      'GET /api/classes/{id}/students/{studentId}/accommodations',
      { 'path.id': f.classId, 'path.studentId': f.student.user!.id },
    ],
    ['GET /api/classes/{id}/accommodations', { 'path.id': f.classId }],
    [
      'PUT /api/classes/{id}/students/{studentId}/accommodations',
      { 'path.id': f.classId, 'path.studentId': f.student.user!.id },
    ],
    // Students without email (docs/adr/015): the teacher's class.
    ...[
      'GET /api/classes/{id}/student-logins',
      'POST /api/classes/{id}/student-logins',
      'PUT /api/classes/{id}/student-logins/{studentId}',
      'POST /api/classes/{id}/login-cards',
      'DELETE /api/classes/{id}/login-cards',
    ].map((name): [string, Record<string, string>] => [name, { 'path.id': f.classId }]),
    ['POST /api/responses', { 'body.assessmentId': f.openId, 'body.questionId': f.openQuestionId }],
    ['POST /api/classes/join', { 'body.joinCode': f.spareJoinCode }],
  ];
  return Object.fromEntries(entries);
}

/** Other settings per operation. */
const SETTINGS: Record<string, string[]> = {
  // Classes and students are named by id: ids the fuzzer makes up are not the teacher's classes nor
  // their students, the documented 400 naming `classIds.i` / `studentIds.i` (no JSON Schema states
  // whose class an id is).
  // (A student's run: 403, the role; an admin's: 404, not their assessment.)
  'POST /api/assessments/{id}/assign': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404"] } }',
  ],
  // Co-teachers are named by email or id: an address the fuzzer makes up is invited (201, pending)
  // until the class holds 20 (409 co_teachers_full), or refused (404 naming email: a student of the
  // district, or for an individual account no individual teacher); the owner, one added or invited
  // already is 409; an id is no co-teacher nor invitation of the class (404); the student's run 403.
  'POST /api/classes/{id}/teachers': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  'DELETE /api/classes/{id}/teachers/{teacherId}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  // Retakes and reopening: a retake of the fixture's result is refused (its assessment allows one
  // attempt: 409 no_attempts_left); reopen is not pinned (it would withdraw the fixture's result):
  // an id the fuzzer makes up is no result of the teacher's (404); students and admins 403.
  'POST /api/results/{id}/retake': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  'POST /api/results/{id}/reopen': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  // The live stream stays open for minutes: read its first event, or for 2 s, and move on.
  'GET /api/dashboard/live': ['request-timeout = 2', 'max-stream-events = 1'],
  // Google sign-in is not configured here (no client id; no outside network in tests): every
  // request is sent back to the sign-in page (302 /auth?error=google_not_configured).
  'GET /api/auth/google': ['checks = { positive_data_acceptance = { expected-statuses = ["3xx"] } }'],
  // A district's SSO connection is checked by discovery at its issuer (none answers here: 400 naming
  // `issuer`); password sign-in goes off only while an enabled connection exists (409).
  'PUT /api/district/sso': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "503"] } }',
  ],
  'PUT /api/district/sso/password-sign-in': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  'DELETE /api/district/sso': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  // A mailed link's token is 32 random bytes: any token the fuzzer makes up is one no mail carried,
  // and the documented 400 `invalid_token` ("This link has expired or was already used") is right.
  'POST /api/auth/email/verify': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "429"] } }',
  ],
  'POST /api/auth/password/reset': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "429"] } }',
  ],
  // The fuzzer does not know the signed-in user's password: the documented 400 naming
  // `currentPassword` is right for any other.
  'PUT /api/auth/password': ['checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "429"] } }'],
  // A password on the list of common and breached passwords, or a teacher's under 8 characters, is
  // the documented 400 naming `password`: neither rule is one a JSON Schema can state (a list of
  // 49,000 words; a minimum that depends on the role). Any other sign-up answers the same 202,
  // registered address or not (no 201, no 409); 403 is a district that signs in by its provider.
  'POST /api/auth/simple-signup': [
    'checks = { positive_data_acceptance = { expected-statuses = ["202", "400", "403", "429"] } }',
  ],
  // Changing the email needs the current password too (the documented 400 naming `currentPassword`
  // for any other), refuses another district's domain (403 `district_address`) and a taken
  // address (409).
  'PUT /api/auth/user': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "409", "429"] } }',
  ],
  // A page's cursor is an opaque value the previous page gave: one the fuzzer makes up is refused
  // with the documented 400 naming `cursor`.
  'GET /api/district/users': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "429"] } }',
  ],
  'GET /api/district/audit': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "429"] } }',
  ],
  // Deleting the district takes its name typed exactly (the demo district's here): any other text
  // is the documented 400 naming `confirmName`, and the district lives on for the other operations.
  'POST /api/district/deletion': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  // An upload is a OneRoster zip or CSV: bytes the fuzzer makes up are the documented 400
  // `invalid_roster` naming `file`.
  'POST /api/district/roster/imports': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "413", "429"] } }',
  ],
  // A QTI package is a zip (or one item's XML) with a manifest naming its items: bytes the fuzzer
  // makes up are the documented 400 naming `package`; a class id it makes up is not the teacher's
  // (400 naming `classId`); the student's run 403.
  'POST /api/qti/imports': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "413", "415"] } }',
  ],
  // An assessment's package is written once its questions are there (409 while generating).
  'GET /api/assessments/{id}/qti': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  // A student's accommodations are named by class and student, a class's list by class: ids the
  // fuzzer makes up are no student or class of the teacher's (404); extraTime is a multiple of
  // 0.05, which it may miss (400).
  'GET /api/classes/{id}/students/{studentId}/accommodations': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'GET /api/classes/{id}/accommodations': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'PUT /api/classes/{id}/students/{studentId}/accommodations': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404"] } }',
  ],
  // Students without email (docs/adr/015): a class id the fuzzer makes up is not the teacher's
  // (404), nor a student id one of the class's (404); a username may be taken in the district, or
  // the class archived (409); the student's run 403 (teachers only).
  'GET /api/classes/{id}/student-logins': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'POST /api/classes/{id}/student-logins': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  // Giving a student of the class a picture: a student id the fuzzer makes up is none of the
  // class's (404); one with an e-mail, or one who has a picture already, is 409.
  'PUT /api/classes/{id}/student-logins/{studentId}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  // The admin's: a made-up student id is none of the district's (404), a first picture without a
  // username is the documented 400 naming `username`, a student with an e-mail 409; others 403.
  'PUT /api/district/students/{id}/sign-in': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  'PUT /api/classes/{id}/student-logins/{studentId}/secret': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'POST /api/classes/{id}/login-cards': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  'DELETE /api/classes/{id}/login-cards': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  // A class code the fuzzer makes up is no class's (404); picture or words it makes up are not the
  // student's (401), and repeated ones lock the student (429); a card it makes up is refused (403).
  'POST /api/auth/class-code': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "404", "429"] } }',
  ],
  'POST /api/auth/class-code/login': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "401", "404", "429"] } }',
  ],
  'POST /api/auth/login-card': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "429"] } }',
  ],
  // A CASE package is checked across its items (identifiers unique, associations inside the
  // package, codes and statements not blank once trimmed), and a {url} must name a public https
  // CASE provider (none answers here): a package or URL the fuzzer makes up is the documented 400
  // naming the item or `url`; a re-import of the same CFDocument answers 200.
  'POST /api/standards/frameworks': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "413", "429"] } }',
  ],
  // An assessment's close time must be later than its open time (the stored one too) and, when it
  // changes, not in the past: rules across fields, the stored row and the clock, which no JSON
  // Schema states; such a pair is the documented 400 naming `closesAt`.
  'PUT /api/assessments/{id}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  // A regrade gives from 0 to the question's points: the question's points are stored, not in the
  // schema, so more is the documented 400 naming `earnedPoints`; the student's run gets 403.
  'PATCH /api/results/{resultId}/responses/{questionId}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  // A new order lists every question of the assessment once: ids the fuzzer makes up are the
  // documented 400 naming `questionIds`; the student's run gets the teacher-only route's 403.
  'PUT /api/assessments/{id}/questions/order': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  // A teacher's try scores each question of the assessment once: ids the fuzzer makes up, or one
  // question answered twice, are the documented 400 naming the answer, an assessment without
  // questions yet the documented 409 `no_questions`; the student's run gets 403.
  'POST /api/assessments/{id}/student-preview/score': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  // Standards are CASE item identifiers of an imported framework: identifiers the fuzzer makes up
  // are the documented 400 naming `standards[i]` (the fixtures import no framework).
  'POST /api/assessments': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  'POST /api/assessments/{id}/questions': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  'PUT /api/questions/{id}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  // A common assessment's questions are the ordinary new-question input: a type's rules inside the
  // list (four options for multiple choice, True/False keys) and made-up standards are the
  // documented 400 naming `questions[i]…`, as for the routes above.
  'POST /api/common-assessments': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  'PUT /api/common-assessments/{id}/questions': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  // The item bank: a new item is the ordinary new-question input (a type's rules, made-up
  // standards: the documented 400 naming the field), and sharing with a school needs a class that
  // names one (400 naming `visibility`); a made-up questionId is someone's question or none (404).
  'POST /api/bank/items': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "429"] } }',
  ],
  'PUT /api/bank/items/{id}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "429"] } }',
  ],
  // Item ids the fuzzer makes up are items the caller cannot see: the documented 400 naming
  // `itemIds[i]`; a full or submitted assessment is the documented 409.
  'POST /api/assessments/{id}/questions/from-bank': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409", "429"] } }',
  ],
  // LTI 1.3 (docs/adr/014-lti.md): a login initiation names a platform some district registered
  // and targets this tool (none is registered here: the documented 400 naming `iss`, `client_id`
  // or `target_link_uri`); a launch carries the state of a pending login (a made-up one is the
  // documented 400 naming `state`) and a token that proves itself (else 401 naming the check).
  'GET /api/lti/login': ['checks = { positive_data_acceptance = { expected-statuses = ["2xx", "3xx", "400"] } }'],
  'POST /api/lti/login': ['checks = { positive_data_acceptance = { expected-statuses = ["2xx", "3xx", "400"] } }'],
  'POST /api/lti/launch': ['checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "401"] } }'],
  // Deep linking: an id the fuzzer makes up is no pending request of the caller's (the documented
  // 404); a pick of an assessment with no questions yet is the documented 409.
  'GET /api/lti/deep-linking/{id}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'POST /api/lti/deep-linking/{id}/response': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409"] } }',
  ],
  'GET /api/lti/deep-linking/{id}/form': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  // A made-up handoff token is not a sign-in: the browser goes back to /auth?error=… (302).
  'GET /api/auth/lti/handoff': ['checks = { positive_data_acceptance = { expected-statuses = ["3xx"] } }'],
  // Dynamic registration: the fuzzer's `rt` is no district's pending link (the documented 400
  // naming `rt`, before any platform is called).
  'GET /api/lti/register': ['checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400"] } }'],
  // A registration's URLs must be public https URLs (a host the fuzzer makes up may be an
  // internal address or no URL: the documented 400 naming the field); an issuer and client id
  // registered already is the documented 409 naming `clientId`.
  'POST /api/integrations/lti/registrations': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "409"] } }',
  ],
  // A class's LMS roster (NRPS): a class id the fuzzer makes up is no class of the teacher's (the
  // documented 404); a class of theirs linked to no LMS course, or whose LMS offered no roster, is
  // the documented 409; the platform's errors are 422 (its URL refused) or 503 (it failed).
  'GET /api/integrations/lti/classes/{classId}/roster': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'POST /api/integrations/lti/classes/{classId}/roster/sync': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404", "409", "422", "503"] } }',
  ],
  'PUT /api/integrations/lti/registrations/{id}': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404", "409"] } }',
  ],
  // Scores to the LMS: an assessment id the fuzzer makes up is no assessment of a class the
  // teacher teaches (the documented 404).
  'GET /api/integrations/lti/assessments/{assessmentId}/scores': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "403", "404"] } }',
  ],
  'POST /api/integrations/lti/assessments/{assessmentId}/scores/resend': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "403", "404"] } }',
  ],
  // Completing needs the pending sign-up's cookie, which only a Google callback sets and the
  // document cannot carry; without it the documented 400 "No Google sign-up in progress" is right.
  'POST /api/auth/google/complete': [
    'checks = { positive_data_acceptance = { expected-statuses = ["2xx", "400", "409", "429"] } }',
  ],
};

const toml = (value: string) => JSON.stringify(value);

function configFile(dir: string, f: Fixtures): string {
  const lines = [
    `[checks.positive_data_acceptance]`,
    // The default also takes 5xx; here a server error on valid input is a failure twice over.
    `expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "429"]`,
    ``,
    `[checks.negative_data_rejection]`,
    // The default, and 413 / 431: a body above the limit, or a query too long for Node's 16 KB of
    // request line and headers, is refused before validation.
    `expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "431", "5xx"]`,
    ``,
  ];
  const pinned = pins(f);
  for (const name of new Set([...Object.keys(pinned), ...Object.keys(SETTINGS)])) {
    const params = Object.entries(pinned[name] ?? {}).map(([k, v]) => `${toml(k)} = ${toml(v)}`);
    lines.push(`[[operations]]`, `include-name = ${toml(name)}`);
    if (params.length) lines.push(`parameters = { ${params.join(', ')} }`);
    lines.push(...(SETTINGS[name] ?? []), ``);
  }
  const file = path.join(dir, 'schemathesis.toml');
  writeFileSync(file, lines.join('\n'));
  return file;
}

const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'unsupported_method',
];

interface RunOutcome {
  passed: number;
  failed: number;
}

/** One schemathesis run as `who`; its JUnit report gives one test case per operation. */
async function runAs(
  python: Python,
  who: string,
  client: Client,
  backend: Backend,
  config: string,
  reportDir: string,
): Promise<RunOutcome> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
  const junit = path.join(reportDir, `${who}.xml`);
  const args = [
    '-c',
    'import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())',
    '--config-file',
    config,
    'run',
    `${backend.url}/api/openapi.json`,
    '--url',
    backend.url,
    '--checks',
    CHECKS.join(','),
    '--max-examples',
    String(MAX_EXAMPLES),
    '--max-time',
    String(MAX_TIME_SECONDS),
    '--phases',
    'examples,coverage,fuzzing',
    // One worker: with two, Hypothesis reads its lambdas' source (ast.parse) in two threads at once,
    // which Debian 12's Python 3.11 can fail with "AST constructor recursion depth mismatch"
    // (CPython gh-106905): a tool error counted as a failed run (seen once, 2026-11-29).
    '--workers',
    '1',
    '--seed',
    process.env.SCHEMATHESIS_SEED ?? '11',
    '--request-timeout',
    '15',
    '--generation-database',
    'none',
    // No text holds NUL (Postgres cannot store it): every request with one answers 400, as the
    // document's description says; generating them would only test that one rule everywhere.
    '--generation-allow-x00',
    'false',
    '--output-truncate',
    'true',
    '--report',
    'junit',
    '--report-junit-path',
    junit,
    '--no-color',
    '--header',
    `Cookie: ${cookie}`,
    '--header',
    `X-CSRF-Token: ${client.cookies.get('cp_csrf') ?? ''}`,
    '--header',
    `Origin: ${backend.url}`,
    ...EXCLUDED.flatMap((name) => ['--exclude-name', name]),
    // SCHEMATHESIS_INCLUDE (a regular expression of operation names, e.g. "/api/bank"): only those
    // operations, to check a change without the whole run.
    ...(process.env.SCHEMATHESIS_INCLUDE ? ['--include-name-regex', process.env.SCHEMATHESIS_INCLUDE] : []),
  ];
  console.log(`\n› schemathesis as the ${who}`);
  // Async: the app under test runs in this very process and must keep answering.
  const code = await new Promise<number | null>((resolve) => {
    // No __pycache__ next to the hooks file in the work tree.
    const env = { ...python.env, SCHEMATHESIS_HOOKS: HOOKS, PYTHONDONTWRITEBYTECODE: '1' };
    const child = spawn(python.command, args, { cwd: reportDir, stdio: 'inherit', env });
    child.on('exit', (status) => resolve(status));
  });
  const xml = existsSync(junit) ? readFileSync(junit, 'utf8') : '';
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  const failed = cases.filter((c) => /<(failure|error)\b/.test(c)).length;
  const passed = cases.length - failed;
  // A run that ends badly without reporting a failed case is a failure all the same.
  return { passed, failed: failed || (code === 0 && cases.length > 0 ? 0 : 1) };
}

async function main(): Promise<void> {
  const summaryArg = process.argv.find((a) => a.startsWith('--summary='));
  const python = installSchemathesis();
  const work = mkdtempSync(path.join(tmpdir(), 'schemathesis-'));
  const demoPassword = randomBytes(12).toString('base64url');
  const backend = await startBackend({
    DEMO_SEED: 'true',
    DEMO_PASSWORD: demoPassword,
    // Every case would otherwise end at the limits after a few seconds; 429 is declared where it applies.
    RATE_LIMIT_JOIN_PER_MINUTE: '10000',
    RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE: '10000',
    RATE_LIMIT_GENERATION_PER_MINUTE: '10000',
    GENERATION_PROVIDER: 'offline',
    RATE_LIMIT_PROFILE_PER_MINUTE: '10000',
    RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '10000',
    RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '10000',
    RATE_LIMIT_OIDC_START_PER_MINUTE: '10000',
  });
  const outcome: RunOutcome = { passed: 0, failed: 0 };
  try {
    const fixtures = await seed(backend.url, demoPassword);
    const config = configFile(work, fixtures);
    for (const who of ['teacher', 'student', 'admin'] as const) {
      const r = await runAs(python, who, fixtures[who], backend, config, work);
      outcome.passed += r.passed;
      outcome.failed += r.failed;
    }
  } catch (err) {
    console.error(err);
    outcome.failed += 1;
  } finally {
    await backend.stop();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`\nschemathesis: ${outcome.passed} passed, ${outcome.failed} failed`);
  if (summaryArg) {
    const file = summaryArg.slice('--summary='.length);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(outcome));
  }
  process.exit(outcome.failed > 0 ? 1 : 0);
}

await main();
