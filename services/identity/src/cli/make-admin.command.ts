// `npm run make-admin -- <email>`: makes a user the admin of their district or school, on the
// database of DATABASE_URL, or else on the embedded Postgres that `npm start` (or `npm run stack`)
// is running from DATA_DIR.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { ConfigError, createPool, parseConfig } from '@checkpoint/service-kit';
import { createPrisma } from '../data-access/prisma.ts';
import { usersRepository } from '../data-access/users.repository.ts';
import { makeAdmin, MakeAdminRefusedError } from '../domain/make-admin.use-case.ts';
import { userEventWriter } from '../messaging/user-events.publisher.ts';

export const USAGE = 'Usage: npm run make-admin -- <email>';

export const makeAdminConfigSchema = z.object({
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/ })
    .optional()
    .describe("The identity service's own URL, or a superuser URL; unset: the embedded Postgres of DATA_DIR."),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .default('identity')
    .describe("Postgres schema of the identity service's tables."),
  DATA_DIR: z
    .string()
    .min(1)
    .default('.data')
    .describe('Where `npm start` / `npm run stack` keep the embedded Postgres.'),
});

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

export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

/** Runs the command; resolves to the process exit code (0 done, 1 refused or failed). */
export async function runMakeAdmin(
  args: string[],
  env: Record<string, string | undefined>,
  out: CommandOutput = { log: (l) => console.log(l), error: (l) => console.error(l) },
): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    out.log(USAGE);
    return 0;
  }
  if (args.length !== 1 || !args[0] || args[0].startsWith('-')) {
    out.error(USAGE);
    return 1;
  }
  let config: z.infer<typeof makeAdminConfigSchema>;
  try {
    config = parseConfig(makeAdminConfigSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`make-admin: ${err.message}`);
    return 1;
  }
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(path.resolve(config.DATA_DIR)));
  if (!url) {
    out.error(
      `make-admin: no running Checkpoint database in ${config.DATA_DIR}/ (start the app with \`npm start\` first), and DATABASE_URL is not set.`,
    );
    return 1;
  }
  const schema = config.DATABASE_SCHEMA;
  const pool = createPool({ url, schema, max: 2, applicationName: 'make-admin' });
  const db = createPrisma(pool, schema);
  try {
    const found = await pool.query<{ users: string | null }>('select to_regclass($1) as users', [`${schema}.users`]);
    if (!found.rows[0]?.users) {
      out.error(`make-admin: this database has no ${schema}.users table (is it Checkpoint's, started at least once?).`);
      return 1;
    }
    const { user, changed } = await makeAdmin(
      { users: usersRepository(db), events: userEventWriter('identity') },
      args[0],
    );
    const place = user.tenantKind === 'school' ? 'school' : 'district';
    out.log(
      changed
        ? `${user.firstName} ${user.lastName} <${user.email}> is now an admin of their ${place}. The admin pages open at their next sign-in (an open session within the access token's lifetime, 15 minutes by default).`
        : `${user.email} already is an admin of their ${place}; nothing changed.`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MakeAdminRefusedError) {
      out.error(`make-admin: ${err.message}`);
      return 1;
    }
    out.error(`make-admin: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db.$disconnect().catch(() => {});
    await pool.end().catch(() => {});
  }
}
