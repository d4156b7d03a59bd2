// `npm run delete-district -- <district id or name> "<district name>"`: the operator's way to
// delete a whole district (docs/adr/009-privacy-operations.md), on the database of DATABASE_URL
// or the embedded Postgres of DATA_DIR. The name is typed again to confirm, as in the admin's
// page. Identity's rows go at once; the other services delete theirs when they consume
// TenantDeleted (at once when the app runs, else at its next start).
import path from 'node:path';
import { ConfigError, createPool, parseConfig } from '@checkpoint/service-kit';
import { privacyUseCases } from '../domain/privacy/privacy.use-case.ts';
import { embeddedDatabaseUrl, makeAdminConfigSchema, type CommandOutput } from './make-admin.command.ts';

export const USAGE = 'Usage: npm run delete-district -- <district id or name> "<district name, typed to confirm>"';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function runDeleteDistrict(
  args: string[],
  env: Record<string, string | undefined>,
  out: CommandOutput = { log: (l) => console.log(l), error: (l) => console.error(l) },
): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    out.log(USAGE);
    return 0;
  }
  const [which, confirmName] = args;
  if (args.length !== 2 || !which || !confirmName) {
    out.error(USAGE);
    return 1;
  }
  let config;
  try {
    config = parseConfig(makeAdminConfigSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`delete-district: ${err.message}`);
    return 1;
  }
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(path.resolve(config.DATA_DIR)));
  if (!url) {
    out.error(`delete-district: no running Checkpoint database in ${config.DATA_DIR}/, and DATABASE_URL is not set.`);
    return 1;
  }
  const pool = createPool({ url, schema: config.DATABASE_SCHEMA, max: 2, applicationName: 'delete-district' });
  try {
    const { rows } = await pool.query<{ id: string; name: string }>(
      `select id::text as id, name from tenants where kind in ('district', 'school') and ${UUID.test(which) ? 'id = $1::uuid' : 'name = $1'}`,
      [which],
    );
    if (rows.length !== 1) {
      out.error(
        rows.length === 0
          ? `delete-district: no district ${which}.`
          : `delete-district: ${rows.length} districts are named "${which}"; give its id.`,
      );
      return 1;
    }
    const uc = privacyUseCases({ pool, source: 'identity' });
    const done = await uc.deleteTenant(rows[0]!.id, confirmName);
    out.log(
      `${done.tenantName} (${rows[0]!.id}) is deleted in identity; request ${done.requestId}: deleted in ${done.answered} of ${done.expected} services so far, the others follow as they consume TenantDeleted.`,
    );
    return 0;
  } catch (err) {
    out.error(`delete-district: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await pool.end().catch(() => {});
  }
}
