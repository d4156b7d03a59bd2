// The container journey: the image (Containerfile, built by scripts/build-image.mjs) runs the
// `migrate` job, then every service and the gateway as containers of their own against the test
// Postgres and Kafka on this host (host network, 127.0.0.1, random ports), with a read-only root
// filesystem, a tmpfs /tmp and the non-root user. Through the gateway container's HTTP API a
// teacher signs up, makes a class and an assessment from a lesson (offline question generator),
// a student joins, answers and submits, and the teacher sees the result (analytics). Then every
// container gets SIGTERM and must stop by itself, exit code 0, well within the grace period.
// `npm test -- containers` runs it (its own vitest config: it builds an image, minutes when cold).
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionServiceDatabase } from '@checkpoint/service-kit';
import { SERVICE_NAMES as SERVICES, urlVariable } from '@checkpoint/service-registry';
import {
  eventually,
  freePort,
  startKafka,
  startMailCatcher,
  startPostgres,
  type KafkaHandle,
  type MailCatcher,
  type PostgresHandle,
} from '@checkpoint/testkit';
import { Client, readMailOf, signUp } from '../api/helpers.ts';
import { buildImage, Containers, podman, root } from './podman.ts';

const IMAGE = 'localhost/checkpoint:journey';
/** The services' drain bound; `podman stop` waits longer than that before it kills. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
const STOP_GRACE_SECONDS = 30;

const LESSON =
  'The water cycle moves water between the oceans, the air and the land. ' +
  'The sun heats water in oceans and lakes, and it evaporates into water vapour. ' +
  'As the vapour rises it cools and condenses into tiny droplets that form clouds. ' +
  'When the droplets grow heavy they fall as precipitation: rain, snow, sleet or hail. ' +
  'Water that reaches the ground flows into rivers as runoff or soaks into the soil as groundwater. ' +
  'Plants release water vapour from their leaves through transpiration.';

let postgres: PostgresHandle;
let kafka: KafkaHandle;
let mail: MailCatcher;
let containers: Containers;
let gatewayUrl: string;
const timings: Record<string, number> = {};
const urls: Record<string, string> = {};

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

async function waitReady(name: string, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    const state = await containers.state(name);
    if (!state.running || Date.now() > deadline)
      throw new Error(
        `${name} not ready (${state.running ? `still not after ${timeoutMs} ms` : `exited with ${state.exitCode}`}):\n${await containers.logs(name)}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  const build = buildImage(IMAGE, 1_500_000);
  timings.buildSeconds = build.seconds;
  if (!build.ok) throw new Error('the image did not build (scripts/build-image.mjs, output above)');
  containers = new Containers(IMAGE);
  [postgres, kafka, mail] = await Promise.all([startPostgres(), startKafka(), startMailCatcher()]);
}, 1_800_000);

afterAll(async () => {
  await containers?.removeAll();
  await Promise.all([postgres?.stop(), kafka?.stop(), mail?.stop()]);
  console.log(`container journey timings: ${JSON.stringify(timings)}`);
}, 120_000);

describe('the image', () => {
  it('runs as uid 10001 without tsx, TypeScript sources or dev packages, labelled per OCI', async () => {
    const inspect = await podman(['image', 'inspect', '--format', '{{json .Config}}', IMAGE]);
    const config = JSON.parse(inspect.stdout) as {
      User: string;
      Labels: Record<string, string>;
      StopSignal: string;
      Entrypoint: string[];
    };
    expect(config.User).toBe('10001:10001');
    expect(config.StopSignal).toBe('SIGTERM');
    expect(config.Entrypoint).toEqual(['node', '/app/dist/checkpoint/checkpoint.mjs']);
    // The commit built (HEAD then; a commit may land while the image builds): one of this repository's.
    const revision = config.Labels['org.opencontainers.image.revision'] ?? '';
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    expect(() => execFileSync('git', ['cat-file', '-e', `${revision}^{commit}`], { cwd: root })).not.toThrow();
    expect(config.Labels['org.opencontainers.image.title']).toBe('Checkpoint');
    expect(config.Labels['org.opencontainers.image.base.name']).toBeTruthy();

    // What is inside, seen from a container of the image (read-only, as it runs).
    const probe = await podman([
      'run',
      '--rm',
      '--runtime',
      '/usr/sbin/runc',
      '--read-only',
      '--entrypoint',
      'sh',
      IMAGE,
      '-c',
      [
        'id -u',
        'echo ---',
        // Any package, binary or TypeScript source anywhere in the image's /app.
        'find /app -name tsx -o -name "*.ts" -o -name "*.tsx" | head -5',
        'echo ---',
        'ls /app/node_modules',
        'echo ---',
        `find /app -type d -path '*/node_modules/*' \\( ${['tsx', 'typescript', 'esbuild', 'vite', 'vitest', 'prisma'].map((n) => `-name ${n}`).join(' -o ')} \\) -prune -print`,
        'echo ---',
        'ls /app/web/dist/index.html /app/services/identity/migrations | head -3',
        'echo ---',
        'touch /app/x 2>&1 || true',
      ].join('; '),
    ]);
    expect(probe.status, probe.stderr).toBe(0);
    const [uid, tsFiles, packages, nested, assets, write] = probe.stdout.split('---\n');
    const lines = (s = '') => s.trim().split('\n').filter(Boolean);
    expect(lines(uid)[0]).toBe('10001');
    expect(lines(uid).slice(1)).toEqual([]);
    expect(tsFiles ?? '').toBe('');
    // Runtime packages are there; build tools and test tools are not.
    const installed = new Set(lines(packages));
    for (const name of ['pg', 'express', 'kafkajs', 'pino']) expect(installed.has(name), name).toBe(true);
    // The build and test tools (root devDependencies that nothing at runtime needs), anywhere in /app.
    const tools = ['tsx', 'typescript', 'esbuild', 'vite', 'vitest', 'prisma', 'eslint', 'prettier', 'supertest'];
    for (const name of tools) expect(installed.has(name), name).toBe(false);
    expect(lines(nested)).toEqual([]);
    expect(lines(assets)).toContain('/app/web/dist/index.html');
    expect(write).toMatch(/Read-only file system|Permission denied/);
  }, 120_000);

  it('has `checkpoint` on PATH: its --help and every operator command the README documents answer --help with 0', async () => {
    const run = (args: string[]) =>
      podman([
        'run',
        '--rm',
        '--runtime',
        '/usr/sbin/runc',
        '--read-only',
        '--entrypoint',
        'checkpoint',
        IMAGE,
        ...args,
      ]);
    const help = await run(['--help']);
    expect(help.status, help.stderr).toBe(0);
    for (const command of ['migrate', 'make-admin', 'create-district', 'delete-district', 'sso', 'standards', 'lti'])
      expect(help.stdout).toContain(command);
    for (const command of ['make-admin', 'create-district', 'delete-district', 'sso', 'standards', 'lti']) {
      const r = await run([command, '--help']);
      expect(r.status, `${command} --help: ${r.stderr}`).toBe(0);
      expect(r.stdout + r.stderr, command).toMatch(/usage/i);
    }
  }, 120_000);
});

describe('the services as containers', () => {
  it('migrate applies every schema once, then exits 0', async () => {
    const vars: Record<string, string> = { LOG_LEVEL: 'info' };
    for (const s of SERVICES) vars[`${s.toUpperCase()}_DATABASE_URL`] = await provisionServiceDatabase(postgres.url, s);
    const started = Date.now();
    const run = await containers.runOnce('migrate', ['migrate'], vars, 120_000);
    timings.migrateSeconds = seconds(started);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      for (const s of SERVICES) {
        const rows = await db.query<{ version: string }>(`select version from "${s}".schema_migrations`);
        const versions = rows.rows.map((r) => r.version);
        expect(versions, s).toContain('000_events_outbox_inbox');
        expect(versions.length, s).toBeGreaterThan(1);
        // The tables belong to the service's own role: the service (MIGRATE_ON_START=false) can use them.
        const owner = await db.query<{ tableowner: string }>(
          `select tableowner from pg_tables where schemaname = $1 and tablename = 'schema_migrations'`,
          [s],
        );
        expect(owner.rows[0]?.tableowner).toBe(`cp_${s}`);
      }
    } finally {
      await db.end();
    }
    // Again: nothing left to apply, still exit 0.
    const again = await containers.runOnce('migrate', ['migrate'], vars, 120_000);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('migration applied');
  }, 300_000);

  it('every service and the gateway start as containers and become ready', async () => {
    const started = Date.now();
    const secret = randomBytes(32).toString('base64url');
    const gatewayPort = await freePort();
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    // signUp(gatewayUrl) reads its sign-up link from the mail catcher.
    readMailOf(gatewayUrl, mail);
    const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', SERVICE_TOKEN_SECRET: secret };
    for (const s of SERVICES) {
      const port = await freePort();
      urls[s] = `http://127.0.0.1:${port}`;
      await containers.start(s, {
        ...common,
        PORT: String(port),
        DATABASE_URL: await provisionServiceDatabase(postgres.url, s),
        KAFKA_BROKERS: kafka.brokers,
        MIGRATE_ON_START: 'false',
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        DEMO_SEED: 'false',
        PUBLIC_URL: gatewayUrl,
        SMTP_URL: mail.url,
        SECRETS_KEY: randomBytes(32).toString('base64'),
        GENERATION_PROVIDER: 'offline',
      });
    }
    await containers.start('gateway', {
      ...common,
      PORT: String(gatewayPort),
      PUBLIC_URL: gatewayUrl,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      ...Object.fromEntries(SERVICES.map((s) => [urlVariable(s), urls[s]!])),
    });
    urls.gateway = gatewayUrl;
    await Promise.all(Object.entries(urls).map(([name, url]) => waitReady(name, url, 120_000)));
    timings.startSeconds = seconds(started);
    // The web app is in the image and served by the gateway.
    const page = await fetch(`${gatewayUrl}/`, { signal: AbortSignal.timeout(10_000) });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root"/);
  }, 300_000);

  it('a teacher signs up, makes a class and an assessment; a student joins and submits; the teacher sees the result', async () => {
    const started = Date.now();
    const teacher = await signUp(gatewayUrl, 'teacher');
    const cls = await teacher.post('/api/classes', { name: 'Earth science', subject: 'Science', period: '2' });
    expect(cls.status, JSON.stringify(cls.body)).toBe(201);

    const student = await signUp(gatewayUrl, 'student', { firstName: 'Rain' });
    // The class reaches the services that check membership through Kafka: bounded wait.
    const joined = await eventually(
      () => student.post('/api/classes/join', { joinCode: cls.body.joinCode }),
      (r) => r.status === 200,
      30_000,
    );
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);

    const created = await eventually(
      () =>
        teacher.post('/api/assessments', {
          title: 'Water cycle check',
          contentToAssess: LESSON,
          questionType: 'multiple_choice',
          numberOfQuestions: 4,
          classId: cls.body.id,
        }),
      (r) => r.status !== 404,
      30_000,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const assessmentId = created.body.id as string;
    // The generation container writes the questions from the lesson (offline provider).
    const job = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/generation`),
      (r) => r.body?.status === 'succeeded' || r.body?.status === 'failed',
      60_000,
    );
    expect(job.body).toMatchObject({ status: 'succeeded', provider: 'offline', questionCount: 4 });
    const questions = (
      await eventually(
        () => teacher.get(`/api/assessments/${assessmentId}/questions`),
        (r) => r.body?.length === 4,
        30_000,
      )
    ).body as { id: string; questionText: string; correctAnswer: string; options: string[] }[];
    expect(questions).toHaveLength(4);
    // Questions about this lesson: each names something the lesson says.
    const lessonWords = new Set(LESSON.toLowerCase().match(/[a-z]{6,}/g));
    for (const q of questions)
      expect(
        q.questionText
          .toLowerCase()
          .match(/[a-z]{6,}/g)
          ?.some((w) => lessonWords.has(w)),
        q.questionText,
      ).toBe(true);
    expect((await teacher.post(`/api/assessments/${assessmentId}/assign`)).status).toBe(200);

    await eventually(
      () => student.get('/api/student/available-assessments'),
      (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === assessmentId),
      30_000,
    );
    // Three right, the last one wrong: 75 %.
    for (const [i, q] of questions.entries()) {
      const answer = i < 3 ? q.correctAnswer : q.options.find((o) => o !== q.correctAnswer)!;
      const saved = await student.post('/api/responses', { assessmentId, questionId: q.id, answer });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const submitted = await student.post('/api/results', { assessmentId });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect(submitted.body).toMatchObject({ percentage: '75.00', correctAnswers: 3, incorrectAnswers: 1 });

    // Analytics (its own container) learns of the result from Kafka.
    const results = await eventually(
      () => teacher.get(`/api/classes/${cls.body.id}/results`),
      (r) => r.status === 200 && r.body.length === 1,
      30_000,
    );
    expect(results.body[0]).toMatchObject({ student: { firstName: 'Rain' }, score: 75 });
    const page = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/results`),
      (r) => r.status === 200 && r.body.summary?.submitted === 1,
      30_000,
    );
    expect(page.body.summary).toMatchObject({ submitted: 1, classSize: 1, averageScore: 75 });
    // Someone else sees none of it.
    const stranger = await signUp(gatewayUrl, 'teacher');
    expect((await stranger.get(`/api/classes/${cls.body.id}/results`)).status).toBe(404);
    expect((await new Client(gatewayUrl).get(`/api/classes/${cls.body.id}/results`)).status).toBe(401);
    timings.journeySeconds = seconds(started);
  }, 300_000);

  it('on SIGTERM every container stops by itself with exit code 0, within the drain bound', async () => {
    const started = Date.now();
    // The gateway first, as a rollout would drain it; then the services at once.
    const stopped: Record<string, { exitCode: number; seconds: number }> = {
      gateway: await containers.stop('gateway', STOP_GRACE_SECONDS),
    };
    await Promise.all(
      SERVICES.map(async (s) => {
        stopped[s] = await containers.stop(s, STOP_GRACE_SECONDS);
      }),
    );
    timings.stopSeconds = seconds(started);
    for (const [name, outcome] of Object.entries(stopped)) {
      expect(outcome.exitCode, `${name}: ${await containers.logs(name, 10)}`).toBe(0);
      // podman would have sent SIGKILL at STOP_GRACE_SECONDS (exit 137); the process drains within its own bound.
      expect(outcome.seconds, name).toBeLessThan(SHUTDOWN_TIMEOUT_MS / 1000 + 5);
    }
  }, 180_000);
});
