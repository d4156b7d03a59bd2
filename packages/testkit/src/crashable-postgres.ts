// An embedded PostgreSQL that a fault test can crash and start again on the same data dir and
// port, as a database server that loses its power (or is killed by the OOM killer) and restarts.
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, launchEmbeddedPostgres, type PostgresHandle } from './postgres.ts';

export interface CrashablePostgres {
  /** Superuser URL of the database `checkpoint`; the same before and after a crash. */
  url: string;
  /**
   * Immediate shutdown (SIGQUIT to the postmaster): every backend ends at once, nothing is
   * checkpointed, open connections break; the next start replays the WAL (crash recovery).
   * Resolves once the postmaster is gone (bounded by `timeoutMs`).
   */
  crash(timeoutMs?: number): Promise<void>;
  /** Starts the server again on the same data dir and port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (fast shutdown) and removes its data dir. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when pid is a postgres server of this data dir (not a process that reused the pid). */
async function isPostmasterOf(pid: number, dataDir: string): Promise<boolean> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('postgres') && cmdline.includes(dataDir);
  } catch {
    return false;
  }
}

/** A throw-away embedded server in a temp dir (never DATABASE_URL: a shared server is not ours to crash). */
export async function startCrashablePostgres(): Promise<CrashablePostgres> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-pg-crash-'));
  // Embedded Postgres runs as the `postgres` OS user when we are root: it must reach the dir.
  await chmod(dataDir, 0o777);
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  let handle: PostgresHandle | undefined = await launchEmbeddedPostgres({ dataDir, port, password, persistent: true });
  const url = handle.url;

  const postmasterPid = async (): Promise<number | undefined> => {
    try {
      const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    url,
    async crash(timeoutMs = 30_000) {
      const pid = await postmasterPid();
      if (pid === undefined || !(await isPostmasterOf(pid, dataDir))) throw new Error('Postgres is not running');
      process.kill(pid, 'SIGQUIT');
      const deadline = Date.now() + timeoutMs;
      while (isAlive(pid)) {
        if (Date.now() > deadline) {
          process.kill(pid, 'SIGKILL');
          throw new Error(`Postgres (pid ${pid}) was still running ${timeoutMs} ms after SIGQUIT`);
        }
        await sleep(50);
      }
      handle = undefined;
    },
    async start() {
      if (handle) return;
      handle = await launchEmbeddedPostgres({ dataDir, port, password, persistent: true });
    },
    async stop() {
      await handle?.stop().catch(() => {});
      handle = undefined;
      // After a crash the instance that started the server no longer knows it: end it by its pid file.
      const pid = await postmasterPid();
      if (pid !== undefined && (await isPostmasterOf(pid, dataDir))) {
        process.kill(pid, 'SIGINT');
        const deadline = Date.now() + 15_000;
        while (isAlive(pid) && Date.now() < deadline) await sleep(100);
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
