// The embedded Postgres of `npm start` / `npm run stack`: its superuser password is random for each
// installation, kept (0600) with the data so that restarts work, and a data folder from before
// (the fixed password) gets a random one at its next start.
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { launchEmbeddedPostgres, SUPERUSER_PASSWORD_FILE } from '../src/postgres.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'checkpoint-pw-'));
  dirs.push(parent);
  // Reachable by the `postgres` OS user the server runs as under root.
  await chmod(parent, 0o755);
  return path.join(parent, 'postgres');
}

/** Whether the superuser can sign in with `password` on the server of `url`. */
async function signsIn(url: string, password: string): Promise<boolean> {
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  const client = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const storedPassword = async (dir: string) => (await readFile(path.join(dir, SUPERUSER_PASSWORD_FILE), 'utf8')).trim();

describe('embedded Postgres superuser password', () => {
  it('when a data folder is created, then its password is random, kept 0600 with the data, and works after a restart', async () => {
    const [a, b] = [await dataDir(), await dataDir()];
    const first = await launchEmbeddedPostgres({ dataDir: a, persistent: true });
    const other = await launchEmbeddedPostgres({ dataDir: b, persistent: true });
    const password = await storedPassword(a);
    try {
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(password).not.toBe(await storedPassword(b));
      expect(decodeURIComponent(new URL(first.url).password)).toBe(password);
      expect((await stat(path.join(a, SUPERUSER_PASSWORD_FILE))).mode & 0o777).toBe(0o600);
      expect(await signsIn(first.url, 'checkpoint')).toBe(false);
    } finally {
      await first.stop();
      await other.stop();
    }
    const again = await launchEmbeddedPostgres({ dataDir: a, persistent: true });
    try {
      expect(await signsIn(again.url, password)).toBe(true);
      expect(await storedPassword(a)).toBe(password);
    } finally {
      await again.stop();
    }
  });

  it('when a data folder from before (fixed password, no file) starts, then it gets a random password and keeps working', async () => {
    const dir = await dataDir();
    // As the former code made it.
    const before = await launchEmbeddedPostgres({ dataDir: dir, persistent: true, password: 'checkpoint' });
    await before.stop();
    const migrated = await launchEmbeddedPostgres({ dataDir: dir, persistent: true });
    const password = await storedPassword(dir);
    try {
      expect(password).not.toBe('checkpoint');
      expect(await signsIn(migrated.url, password)).toBe(true);
      expect(await signsIn(migrated.url, 'checkpoint')).toBe(false);
    } finally {
      await migrated.stop();
    }
    const restarted = await launchEmbeddedPostgres({ dataDir: dir, persistent: true });
    try {
      expect(await signsIn(restarted.url, password)).toBe(true);
    } finally {
      await restarted.stop();
    }
  });

  it('when that change was interrupted after the new password was set, then the next start finds it', async () => {
    const dir = await dataDir();
    const before = await launchEmbeddedPostgres({ dataDir: dir, persistent: true, password: 'checkpoint' });
    const admin = new pg.Client({ connectionString: before.url });
    await admin.connect();
    await admin.query(`alter role postgres with password 'half-way-there'`);
    await admin.end();
    await writeFile(path.join(dir, `${SUPERUSER_PASSWORD_FILE}.pending`), 'half-way-there\n', { mode: 0o600 });
    await before.stop();
    const after = await launchEmbeddedPostgres({ dataDir: dir, persistent: true });
    try {
      const password = await storedPassword(dir);
      expect(password).not.toBe('half-way-there');
      expect(await signsIn(after.url, password)).toBe(true);
    } finally {
      await after.stop();
    }
  });
});
