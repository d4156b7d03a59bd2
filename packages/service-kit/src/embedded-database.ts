// The operator commands' database: the one of DATABASE_URL, or else the embedded Postgres that
// `npm start` (or `npm run stack`) is running from DATA_DIR (its superuser, as the run modes start it).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';

/** An operator command's database settings, for the tables of `service`. */
export const operatorDatabaseShape = (service: string) => ({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .describe(`The ${service} service's own URL, or a superuser URL; unset: the embedded Postgres of DATA_DIR.`),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .default(service)
    .describe(`Postgres schema of the ${service} service's tables.`),
  DATA_DIR: z
    .string()
    .min(1)
    .default('.data')
    .describe('Where `npm start` / `npm run stack` keep the embedded Postgres.'),
});

/** Where an operator command writes what it has to say. */
export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/** The data folders of the embedded Postgres of the all-in-one and stack modes, in that order. */
const EMBEDDED_DIRS = ['postgres', 'stack-postgres'];
/**
 * Superuser, its password file in the data folder (random per installation) and database of
 * launchEmbeddedPostgres (packages/testkit), as the run modes start it.
 */
const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD_FILE = 'checkpoint-superuser-password';
const EMBEDDED_DATABASE = 'checkpoint';

/**
 * The superuser URL of an embedded Postgres running from `dataDir` (its port is on the 4th line
 * of postmaster.pid); undefined when none answers.
 */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string | undefined> {
  for (const dir of EMBEDDED_DIRS) {
    let pidFile: string;
    try {
      pidFile = await readFile(path.join(dataDir, dir, 'postmaster.pid'), 'utf8');
    } catch {
      continue;
    }
    const port = Number(pidFile.split('\n')[3]);
    if (!Number.isInteger(port) || port <= 0) continue;
    const password = await readFile(path.join(dataDir, dir, EMBEDDED_PASSWORD_FILE), 'utf8').catch(() => '');
    const login = `${EMBEDDED_USER}:${encodeURIComponent(password.trim())}`;
    const url = `postgres://${login}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
    // A pid file left by a server that was killed: nothing listens.
    if (await answers(url)) return url;
  }
  return undefined;
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
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
