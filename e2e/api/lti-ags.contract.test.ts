// Scores to the LMS gradebook (LTI AGS, docs/adr/014-lti.md) against the real platform package
// (lti1p3platform, e2e/lti/platform.py: its token endpoint checks the tool's signed assertion
// against the tool's JWKS and issues the token; its score service checks that token): the whole
// backend in one process, its public URL the one the platform launches. An instructor's launch
// makes the course's class, the teacher adds an assessment; a learner launches the link that names
// it (AGS claim + custom checkpoint_assessment_id), takes it, submits, and the platform receives the
// score. Then the platform is down while another learner submits: the score waits (the teacher sees
// why) and arrives once the platform is back on its address.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@checkpoint/service-kit';
import { startMailCatcher, startPostgres, type MailCatcher, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { startPlatform, type RunningPlatform } from '../lti/platform.ts';
import { Client, eventually, readMailOf, type Reply } from './helpers.ts';

let postgres: PostgresHandle;
let mail: MailCatcher;
let app: AllInOne;
let platform: RunningPlatform;
let platformPort: number;
let tool: string;
let db: pg.Pool;
const districtId = randomUUID();

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
const LESSON =
  'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
  'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
  'A unit fraction has a numerator of one. A mixed number has a whole number part and a fraction part. ' +
  'A number line shows where each fraction lies between zero and one.';

function ok(res: Reply, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  const port = await freePort();
  tool = `http://127.0.0.1:${port}`;
  [postgres, mail] = await Promise.all([startPostgres(), startMailCatcher()]);
  app = await startAllInOne({
    postgresUrl: postgres.url,
    port,
    host: '127.0.0.1',
    logger: createLogger('lti-ags', 'silent'),
    env: {
      LOG_LEVEL: 'silent',
      SMTP_URL: mail.url,
      PUBLIC_URL: tool,
      LTI_ALLOW_LOOPBACK: 'true',
      LTI_SCORE_BACKOFF_MS: '200',
      LTI_SCORE_MAX_BACKOFF_MS: '1000',
      LTI_SCORE_MAX_ATTEMPTS: '30',
      LTI_SCORE_POLL_MS: '200',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '10000',
      RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '10000',
    },
  });
  readMailOf(app.url, mail);
  platform = await startPlatform(tool);
  platformPort = Number(new URL(platform.info.url).port);
  db = new pg.Pool({ connectionString: postgres.url, max: 2 });
  db.on('error', () => {});
  await db.query(
    `insert into identity.tenants (id, name, kind, email_domains) values ($1, 'LTI district', 'district', '{lti-district.test}')`,
    [districtId],
  );
  const { issuer, clientId, deploymentId, jwksUrl, authorizationUrl, tokenUrl } = platform.info;
  await db.query(
    `insert into integrations.lti_registrations (id, tenant_id, issuer, client_id, deployment_ids, jwks_url, auth_url, token_url)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [randomUUID(), districtId, issuer, clientId, [deploymentId], jwksUrl, authorizationUrl, tokenUrl],
  );
}, 180_000);

afterAll(async () => {
  await db?.end();
  await app?.stop();
  await platform?.stop();
  await Promise.all([postgres?.stop(), mail?.stop()]);
});

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function visit(url: string) {
  const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

/**
 * A whole launch as the browser makes it: the platform's login initiation, the tool's login, the
 * platform's authorization (its signed id_token in an auto-posting form), the launch, and the
 * one-time sign-in opened first-party: a signed-in client and where it landed.
 */
async function launch(user: string, role: 'instructor' | 'learner', extra: Record<string, string> = {}) {
  const start = await visit(
    `${platform.info.url}/start?${new URLSearchParams({ user, role, context: 'course-ags', context_title: 'Fractions 7', ...extra })}`,
  );
  expect(start.status).toBe(302);
  const login = await visit(start.location);
  expect(login.status, login.text).toBe(302);
  const authorize = await visit(login.location);
  expect(authorize.status, authorize.text).toBe(200);
  const action = unescape(/<form[^>]*action="([^"]*)"/.exec(authorize.text)![1]!);
  const fields = Object.fromEntries(
    [...authorize.text.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      unescape(m[2]!),
    ]),
  );
  const landed = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: platform.info.url,
      'sec-fetch-site': 'cross-site',
    },
    body: new URLSearchParams(fields).toString(),
  });
  const page = await landed.text();
  expect(landed.status, page).toBe(200);
  const link = unescape(/<a id="open-checkpoint" href="([^"]*)"/.exec(page)![1]!);
  const client = new Client(app.url);
  const handoff = await client.get(new URL(link).pathname + new URL(link).search);
  expect(handoff.status).toBe(302);
  ok(await client.get('/api/auth/user'), 200, 'signed in');
  client.user = (await client.get('/api/auth/user')).body;
  return { client, location: handoff.headers.get('location') ?? '' };
}

/** The platform's gradebook: the scores it received. */
const received = async () =>
  (await (await fetch(`${platform.info.url}/scores`)).json()) as {
    userId: string;
    scoreGiven?: number;
    scoreMaximum?: number;
    activityProgress: string;
    gradingProgress: string;
    timestamp: string;
    lineitem: string;
  }[];

describe('scores to the LMS gradebook (AGS)', () => {
  let teacher: Client;
  let assessmentId: string;
  let questionIds: string[];

  async function takeAndSubmit(student: Client, answers: string[]) {
    await eventually(
      () => student.get('/api/student/available-assessments'),
      (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === assessmentId),
    );
    for (const [i, answer] of answers.entries())
      ok(await student.post('/api/responses', { assessmentId, questionId: questionIds[i], answer }), 200, 'answer');
    ok(await student.post('/api/results', { assessmentId }), 201, 'submit');
  }

  it('a learner who launched the link takes the assessment, submits, and the platform receives the score', async () => {
    const instructor = await launch('lms-teacher-ags', 'instructor');
    teacher = instructor.client;
    const classId = instructor.location.slice('/class/'.length);
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
    assessmentId = ok(created, 201, 'create assessment').id;
    await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}`),
      (r) => r.body?.generationStatus !== 'generating',
      30_000,
    );
    for (const q of (await teacher.get(`/api/assessments/${assessmentId}/questions`)).body)
      ok(await teacher.del(`/api/questions/${q.id}`), 204, 'delete generated question');
    for (const q of QUESTIONS) ok(await teacher.post(`/api/assessments/${assessmentId}/questions`, q), 201, 'add');
    ok(await teacher.post(`/api/assessments/${assessmentId}/assign`), 200, 'assign');
    questionIds = (await teacher.get(`/api/assessments/${assessmentId}/questions`)).body.map(
      (q: { id: string }) => q.id,
    );

    const { client: student } = await launch('lms-student-ags-1', 'learner', { assessment: assessmentId });
    await takeAndSubmit(student, ['3/4', 'False']);
    const scores = await eventually(received, (s) => s.some((x) => x.userId === 'lms-student-ags-1'), 30_000);
    const score = scores.find((x) => x.userId === 'lms-student-ags-1')!;
    expect(score).toMatchObject({
      scoreGiven: 1,
      scoreMaximum: 2,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
      lineitem: '/lineitems/resource-link-1/lineitem',
    });
    // The teacher sees it sent.
    const status = await eventually(
      () => teacher.get(`/api/integrations/lti/assessments/${assessmentId}/scores`),
      (r) => r.status === 200 && r.body.scores.some((s: { status: string }) => s.status === 'sent'),
    );
    expect(status.body.scores[0]).toMatchObject({ lmsUserId: 'lms-student-ags-1', status: 'sent', scoreGiven: 1 });
  }, 120_000);

  it('a score retried after the platform was down arrives once it is back', async () => {
    const { client: student } = await launch('lms-student-ags-2', 'learner', { assessment: assessmentId });
    await platform.stop();
    await takeAndSubmit(student, ['3/4', 'True']);
    // The teacher sees it waiting, with why and when it is tried again.
    const waiting = await eventually(
      () => teacher.get(`/api/integrations/lti/assessments/${assessmentId}/scores`),
      (r) =>
        r.body?.scores?.some(
          (s: { lmsUserId: string; attempts: number }) => s.lmsUserId === 'lms-student-ags-2' && s.attempts >= 1,
        ),
      30_000,
    );
    const row = waiting.body.scores.find((s: { lmsUserId: string }) => s.lmsUserId === 'lms-student-ags-2');
    expect(row).toMatchObject({ status: 'pending' });
    expect(row.lastError).toMatch(/token URL|score service/);
    expect(row.nextAttemptAt).not.toBeNull();

    platform = await startPlatform(tool, { port: platformPort });
    const scores = await eventually(received, (s) => s.some((x) => x.userId === 'lms-student-ags-2'), 30_000);
    expect(scores.find((x) => x.userId === 'lms-student-ags-2')).toMatchObject({ scoreGiven: 2, scoreMaximum: 2 });
  }, 120_000);
});
