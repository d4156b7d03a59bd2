// kill -9 of the all-in-one leaves its embedded Postgres running without a parent, holding the data
// directory. The next start (as `npm start` runs it) finds that server by DATA_DIR's postmaster.pid,
// stops it and starts; the data of the first run is still there.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, SUPERUSER_PASSWORD_FILE } from '@checkpoint/testkit';

const root = path.resolve(import.meta.dirname, '../..');
let dataDir = '';
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  const left = postgresPid();
  if (left && alive(left)) process.kill(left, 'SIGQUIT');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function postgresPid(): number | undefined {
  try {
    return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

/** A query on the embedded server now running on DATA_DIR (its port from the pid file). */
async function query(sql: string): Promise<pg.QueryResult> {
  const dir = path.join(dataDir, 'postgres');
  const port = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = readFileSync(path.join(dir, SUPERUSER_PASSWORD_FILE), 'utf8').trim();
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'checkpoint' });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Starts the all-in-one on DATA_DIR and resolves with its address once it says it is running. */
async function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/src/all-in-one.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not running after 120 s:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Checkpoint is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} while starting:\n${output}`));
    });
  });
  return { child, url, output: () => output };
}

it('when the all-in-one is killed with SIGKILL, then its Postgres is left running, and the next start stops it, starts and keeps the data', async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-restart-'));
  // Run as root, the embedded server runs as the `postgres` user, which must reach its directory.
  await chmod(dataDir, 0o755);
  const first = await start();
  // Something of the first run's: a row in its database.
  await query('create table restart_marker (note text); insert into restart_marker values ($$first run$$)');
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  const orphan = postgresPid();
  expect(orphan, 'the pid file of the first run').toBeGreaterThan(0);
  expect(alive(orphan!), 'kill -9 leaves the embedded Postgres running').toBe(true);

  const second = await start();
  expect(alive(orphan!), 'the orphan was stopped').toBe(false);
  expect(second.output()).toMatch(/stopping a Postgres \(process \d+\) left running/);
  expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
  expect((await query('select note from restart_marker')).rows).toEqual([{ note: 'first run' }]);
  second.child.kill('SIGTERM');
  const code = await new Promise((resolve) => second.child.once('exit', (c, s) => resolve(c ?? s)));
  expect(code).toBe(0);
  expect(alive(orphan!)).toBe(false);
});
