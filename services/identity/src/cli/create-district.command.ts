// `npm run create-district -- --name "<name>" --domain <domain> [--domain …] [--kind district|school]
// --admin <email> --first-name <first> --last-name <last>`: the operator's way to onboard a
// district or school with its first admin (domain/create-district.use-case.ts). Database as
// make-admin: DATABASE_URL, else the embedded Postgres of DATA_DIR.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, createPool, parseConfig } from '@checkpoint/service-kit';
import { createPrisma } from '../data-access/prisma.ts';
import { usersRepository } from '../data-access/users.repository.ts';
import {
  createDistrict,
  CreateDistrictRefusedError,
  validateDistrict,
  type CreateDistrictInput,
  type CreatedDistrict,
} from '../domain/create-district.use-case.ts';
import { userEventWriter } from '../messaging/user-events.publisher.ts';
import { embeddedDatabaseUrl, makeAdminConfigSchema, type CommandOutput } from './make-admin.command.ts';

export const CREATE_DISTRICT_USAGE = `Usage:
  npm run create-district -- --name "<district name>" --domain <email domain> [--domain <another>]
                             [--kind district|school] --admin <email> --first-name <first> --last-name <last>
The admin's email must be at one of the domains; the domains must be the district's own (no public
mail provider) and not another district's. Several domains: repeat --domain (or a,b).`;

const configSchema = makeAdminConfigSchema.extend({
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe("The web app's origin, to name the sign-in page in the output."),
});

const OPTIONS = {
  name: { type: 'string' },
  domain: { type: 'string', multiple: true },
  kind: { type: 'string', default: 'district' },
  admin: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** What the operator reads once it is done: what exists now, and how the admin gets in. */
function doneText(created: CreatedDistrict, publicUrl: string | undefined): string[] {
  const { admin } = created;
  const signIn = publicUrl ? `${publicUrl.replace(/\/+$/, '')}/auth` : 'the sign-in page';
  return [
    `Created the ${created.kind} "${created.name}" (${created.tenantId}) for ${created.domains.join(', ')}.`,
    `Its admin: ${admin.firstName} ${admin.lastName} <${admin.email}>, email verified, no password yet. They sign in by either:`,
    `  - a password they choose with "Forgot password?" on ${signIn} (the reset link goes to ${admin.email});`,
    `  - the ${created.kind}'s single sign-on, once set up (by the admin under Admin → Sign-in, or by the operator):`,
    `      npm run sso -- set --district ${created.domains[0]} --issuer <https://…> --client-id <id> [--client-secret …]`,
    `People at ${created.domains.join(', ')} can now join by signing up (a link is mailed to them), or by the admin's invitations.`,
  ];
}

/** Runs the command; resolves to the process exit code (0 done, 1 refused or failed). */
export async function runCreateDistrict(
  argv: string[],
  env: Record<string, string | undefined>,
  out: CommandOutput = { log: (l) => console.log(l), error: (l) => console.error(l) },
): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (err) {
    out.error(`create-district: ${(err as Error).message}\n${CREATE_DISTRICT_USAGE}`);
    return 1;
  }
  if (values.help) {
    out.log(CREATE_DISTRICT_USAGE);
    return 0;
  }
  const missing = (['name', 'domain', 'admin', 'first-name', 'last-name'] as const).filter((o) => !values[o]);
  if (missing.length > 0) {
    out.error(`create-district: ${missing.map((o) => `--${o}`).join(', ')} required\n${CREATE_DISTRICT_USAGE}`);
    return 1;
  }
  const input: CreateDistrictInput = {
    name: values.name!,
    domains: values.domain!.flatMap((d) => d.split(',')),
    kind: values.kind,
    adminEmail: values.admin!,
    firstName: values['first-name']!,
    lastName: values['last-name']!,
  };
  // A typo is refused before looking for a database.
  try {
    validateDistrict(input);
  } catch (err) {
    if (!(err instanceof CreateDistrictRefusedError)) throw err;
    out.error(`create-district: ${err.message}`);
    return 1;
  }
  let config: z.infer<typeof configSchema>;
  try {
    config = parseConfig(configSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`create-district: ${err.message}`);
    return 1;
  }
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(path.resolve(config.DATA_DIR)));
  if (!url) {
    out.error(
      `create-district: no running Checkpoint database in ${config.DATA_DIR}/ (start the app with \`npm start\` first), and DATABASE_URL is not set.`,
    );
    return 1;
  }
  const schema = config.DATABASE_SCHEMA;
  const pool = createPool({ url, schema, max: 2, applicationName: 'create-district' });
  const db = createPrisma(pool, schema);
  try {
    const found = await pool.query<{ users: string | null }>('select to_regclass($1) as users', [`${schema}.users`]);
    if (!found.rows[0]?.users) {
      out.error(
        `create-district: this database has no ${schema}.users table (is it Checkpoint's, started at least once?).`,
      );
      return 1;
    }
    const created = await createDistrict({ users: usersRepository(db), events: userEventWriter('identity') }, input);
    for (const line of doneText(created, config.PUBLIC_URL)) out.log(line);
    return 0;
  } catch (err) {
    out.error(`create-district: ${err instanceof Error ? err.message : String(err)}`);
    if (!(err instanceof CreateDistrictRefusedError)) out.error('Nothing was created.');
    return 1;
  } finally {
    await db.$disconnect().catch(() => {});
    await pool.end().catch(() => {});
  }
}
