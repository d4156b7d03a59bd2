// A Postgres left running by a process that died without stopping it (kill -9 of the all-in-one):
// it still holds the data directory, so the next start failed. Found by the data directory's
// postmaster.pid, checked on Linux's /proc to be a postgres of that directory whose parent is gone
// (not a running Checkpoint's), and stopped as Postgres stops itself (a fast shutdown: open
// transactions roll back, the data is left consistent).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

export type OrphanOutcome = 'none' | 'stale' | 'stopped';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

const procText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
};

/** The parent of `pid`, from /proc/<pid>/stat (the field after the parenthesised command name). */
function parentOf(pid: number): number | undefined {
  const stat = procText(`/proc/${pid}/stat`);
  const after = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(after?.[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

async function exited(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * Stops a Postgres that a dead process left running on `dataDir`. Throws, naming the process, when
 * the directory is held by a live Checkpoint process or by a server this process cannot check or
 * stop; 'stale' when the pid file names no such server (Postgres itself then replaces it).
 */
export async function stopOrphanedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<OrphanOutcome> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const text = procText(pidFile);
  if (text === undefined) return 'none';
  const [pidLine = '', dirLine = ''] = text.split('\n');
  const pid = Number(pidLine.trim());
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return 'stale';
  if (!existsSync('/proc/self/stat'))
    throw new Error(`a Postgres (process ${pid}) still holds ${dataDir}: stop it (kill -INT ${pid}) and start again`);
  const command = procText(`/proc/${pid}/cmdline`)?.split('\0') ?? [];
  const isPostgres = command.some((part) => path.basename(part) === 'postgres');
  if (!isPostgres || real(dirLine.trim()) !== real(dataDir)) {
    // The number now belongs to another program: the file is left from a server long gone.
    await rm(pidFile, { force: true });
    return 'stale';
  }
  const parent = parentOf(pid);
  const parentCommand = parent && parent > 1 ? (procText(`/proc/${parent}/cmdline`) ?? '') : '';
  if (parent === process.pid || /(?:^|\/)node(?:\0|$)/.test(parentCommand.split('\0')[0] ?? ''))
    throw new Error(
      `${dataDir} is in use by another running Checkpoint (process ${parent}); stop it first or use another DATA_DIR`,
    );
  log(`stopping a Postgres (process ${pid}) left running on ${dataDir} by a process that ended without stopping it`);
  process.kill(pid, 'SIGINT');
  if (await exited(pid, 30_000)) return 'stopped';
  // Still there after a fast shutdown's time: an immediate one (recovery runs at the next start).
  process.kill(pid, 'SIGQUIT');
  if (await exited(pid, 10_000)) return 'stopped';
  throw new Error(`a Postgres (process ${pid}) left on ${dataDir} did not stop; stop it (kill ${pid}) and start again`);
}
