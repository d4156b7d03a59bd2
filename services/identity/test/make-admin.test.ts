// `npm run make-admin -- <email>` as an operator runs it (a child process), against a real Postgres:
// with DATABASE_URL (superuser or the service's own role) or, without it, the embedded Postgres
// that `npm start` runs from DATA_DIR.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, InProcessBus, UserUpdatedSchema } from '@checkpoint/events';
import { provisionServiceDatabase, startService } from '@checkpoint/service-kit';
import { launchEmbeddedPostgres, TEST_SERVICE_TOKEN_SECRET } from '@checkpoint/testkit';
import { identityService } from '../src/index.ts';
import { Browser, signUpByLink, startHarness, type Harness } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const DISTRICT = 'demo.checkpoint.school';

/** Runs the npm script's command line; resolves with its exit code and output. */
function makeAdmin(args: string[], env: Record<string, string | undefined>) {
  const childEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/identity/src/cli/make-admin.ts', ...args], {
      cwd: root,
      env: childEnv,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let h: Harness;
beforeAll(async () => {
  // The demo seed makes the district that owns DISTRICT: sign-ups there join it by the mailed link.
  h = await startHarness({ DEMO_SEED: 'true', DEMO_PASSWORD: 'demo-password' });
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

const signUp = (overrides: Record<string, unknown>) => signUpByLink(h, overrides);

async function state(userId: string) {
  const user = await h.db.query<{ role: string }>('select role from users where id = $1', [userId]);
  const events = await h.db.query<{ payload: Buffer }>(
    `select payload from outbox where type = 'checkpoint.identity.v1.UserUpdated' and key = $1 order by created_at`,
    [userId],
  );
  return { role: user.rows[0]?.role, updates: events.rows.map((r) => fromBinary(UserUpdatedSchema, r.payload)) };
}

describe('make-admin with DATABASE_URL', () => {
  it('when given the email of a district teacher (superuser URL), then they become admin with a UserUpdated event, and sign in as admin', async () => {
    const teacher = await signUp({ email: `Mia.${Date.now()}@${DISTRICT}`, firstName: 'Mia', lastName: 'Moss' });
    expect(teacher.user.accountType).toBe('district');

    const run = await makeAdmin([`  ${teacher.email.toUpperCase()} `], { DATABASE_URL: h.postgres.url });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Mia Moss <${teacher.email.toLowerCase()}> is now an admin of their district.`);

    const after = await state(teacher.user.id);
    expect(after.role).toBe('admin');
    expect(after.updates).toHaveLength(1);
    expect(after.updates[0]).toMatchObject({
      userId: teacher.user.id,
      role: 'admin',
      tenantKind: 'district',
      email: teacher.email.toLowerCase(),
    });
    const signIn = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: teacher.email,
      password: teacher.password,
    });
    expect(signIn).toMatchObject({ status: 200, body: { user: { role: 'admin', accountType: 'district' } } });

    // Again: nothing to do, nothing written.
    const again = await makeAdmin([teacher.email], { DATABASE_URL: h.postgres.url });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already is an admin');
    expect((await state(teacher.user.id)).updates).toHaveLength(1);
  });

  it("when run with the identity service's own database role, then it works the same", async () => {
    const teacher = await signUp({ email: `role.${Date.now()}@${DISTRICT}` });
    const run = await makeAdmin([teacher.email], { DATABASE_URL: h.serviceUrl });
    expect(run.code).toBe(0);
    expect((await state(teacher.user.id)).role).toBe('admin');
  });

  it('when the email is unknown, then it refuses with exit 1 and a clear message', async () => {
    const run = await makeAdmin(['nobody@nowhere.example'], { DATABASE_URL: h.postgres.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('make-admin: No user has the email "nobody@nowhere.example".');
  });

  it('when the user has an individual account, then it refuses (no district to administer) and changes nothing', async () => {
    const solo = await signUp({});
    expect(solo.user.accountType).toBe('individual');
    const run = await makeAdmin([solo.email], { DATABASE_URL: h.postgres.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${solo.email} has an individual account`);
    expect(run.stderr).toContain('Only a user of a district or school can be made its admin.');
    expect(await state(solo.user.id)).toEqual({ role: 'teacher', updates: [] });
  });

  it('when the user is a student of the district, then it refuses and changes nothing', async () => {
    const student = await signUp({ email: `kid.${Date.now()}@${DISTRICT}`, role: 'student' });
    const run = await makeAdmin([student.email], { DATABASE_URL: h.postgres.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is a student account');
    expect(await state(student.user.id)).toEqual({ role: 'student', updates: [] });
  });

  it('when no email (or two) is given, then it prints the usage and exits 1', async () => {
    for (const args of [[], ['a@b.c', 'd@e.f']]) {
      const run = await makeAdmin(args, { DATABASE_URL: h.postgres.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('Usage: npm run make-admin -- <email>');
    }
  });
});

describe('make-admin without DATABASE_URL', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-make-admin-'));
    await chmod(dataDir, 0o755); // embedded Postgres runs as the postgres user when we are root
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('when no database runs in DATA_DIR, then it says to start the app (or set DATABASE_URL) and exits 1', async () => {
    // A pid file left behind by a killed server: nothing listens on its port.
    await mkdir(path.join(dataDir, 'postgres'), { recursive: true });
    await writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), '4242\n/x\n1700000000\n1\n/tmp\n127.0.0.1\n');
    const run = await makeAdmin(['teacher@demo.checkpoint.school'], { DATABASE_URL: undefined, DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no running Checkpoint database');
    expect(run.stderr).toContain('npm start');
    await rm(path.join(dataDir, 'postgres'), { recursive: true, force: true });
  });

  it("when `npm start`'s embedded Postgres runs from DATA_DIR, then the command finds it and makes the admin", async () => {
    // As the all-in-one runs it: DATA_DIR/postgres, its superuser, one role and schema per service.
    const postgres = await launchEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), persistent: false });
    const identity = await startService(identityService, {
      env: {
        DATABASE_URL: await provisionServiceDatabase(postgres.url, 'identity'),
        LOG_LEVEL: 'silent',
        DEMO_SEED: 'true',
        DEMO_PASSWORD: 'demo-password',
        SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      },
      bus: new InProcessBus(),
    });
    try {
      const run = await makeAdmin(['teacher@demo.checkpoint.school'], { DATABASE_URL: undefined, DATA_DIR: dataDir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('<teacher@demo.checkpoint.school> is now an admin of their district.');
      const signIn = await new Browser(identity.url).request('POST', '/api/auth/simple-login', {
        email: 'teacher@demo.checkpoint.school',
        password: 'demo-password',
      });
      expect(signIn).toMatchObject({ status: 200, body: { user: { role: 'admin' } } });
    } finally {
      await identity.stop();
      await postgres.stop();
    }
  }, 120_000);
});
