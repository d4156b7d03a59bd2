// `npm run make-admin -- <email>`: makes a user the admin of their district or school, on the
// database of DATABASE_URL, or else on the embedded Postgres that `npm start` (or `npm run stack`)
// is running from DATA_DIR.
import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  createPool,
  embeddedDatabaseUrl,
  operatorDatabaseShape,
  parseConfig,
  type CommandOutput,
} from '@checkpoint/service-kit';
import { createPrisma } from '../data-access/prisma.ts';
import { usersRepository } from '../data-access/users.repository.ts';
import { makeAdmin, MakeAdminRefusedError } from '../domain/make-admin.use-case.ts';
import { userEventWriter } from '../messaging/user-events.publisher.ts';

export const USAGE = 'Usage: npm run make-admin -- <email>';

export const makeAdminConfigSchema = z.object(operatorDatabaseShape('identity'));

export { embeddedDatabaseUrl, type CommandOutput } from '@checkpoint/service-kit';

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
