// `checkpoint migrate [service…]`: applies the SQL migrations of every service (or the ones named)
// once, then exits: 0 when every schema is current, 1 otherwise. Run before the services start
// (a Helm pre-install/pre-upgrade hook Job) when they run with MIGRATE_ON_START=false.
//
// Each service's tables must belong to the role that service connects as, so each is migrated
// through its own connection: <NAME>_DATABASE_URL (e.g. IDENTITY_DATABASE_URL), else DATABASE_URL
// (the service's own env when one service is named, or one URL for all; with
// MIGRATE_PROVISION_ROLES=true an admin URL that provisions each service's role first). The schema is
// <NAME>_DATABASE_SCHEMA, else DATABASE_SCHEMA when one service is named, else the service's name.
import { z } from 'zod';
import {
  baseConfigSchema,
  ConfigError,
  createLogger,
  createPool,
  envBoolean,
  migrateService,
  parseConfig,
  provisionServiceDatabase,
  type ServiceDefinition,
} from '@checkpoint/service-kit';

import { serviceDefinitions } from './service-definitions.ts';

/** In the list's order only for reading the log: each schema is migrated on its own. */
const SERVICES = serviceDefinitions;
export const SERVICE_NAMES = SERVICES.map((s) => s.name);

const url = baseConfigSchema.shape.DATABASE_URL;
const schemaName = baseConfigSchema.shape.DATABASE_SCHEMA;

export interface MigrationTarget {
  service: ServiceDefinition;
  url: string;
  schema: string;
}

/** Which services to migrate, and where: validated up front so that a typo names its variable. */
export function migrationTargets(
  names: string[],
  env: Record<string, string | undefined> = process.env,
): MigrationTarget[] {
  const unknown = names.filter((n) => !SERVICE_NAMES.includes(n));
  if (unknown.length)
    throw new ConfigError([
      `service: one of ${SERVICE_NAMES.join(', ')} (got ${unknown.map((n) => `"${n}"`).join(', ')})`,
    ]);
  const chosen = names.length ? SERVICES.filter((s) => names.includes(s.name)) : SERVICES;
  // DATABASE_SCHEMA is one service's own variable: it applies only when that service alone is named.
  const single = chosen.length === 1 && names.length === 1;
  const shape: Record<string, z.ZodType> = { DATABASE_URL: url.optional(), DATABASE_SCHEMA: schemaName };
  for (const s of chosen) {
    const prefix = s.name.toUpperCase();
    shape[`${prefix}_DATABASE_URL`] = url.optional();
    shape[`${prefix}_DATABASE_SCHEMA`] = schemaName;
  }
  const config = parseConfig(z.object(shape), env) as Record<string, string | undefined>;
  const missing = chosen.filter((s) => !config[`${s.name.toUpperCase()}_DATABASE_URL`] && !config.DATABASE_URL);
  if (missing.length)
    throw new ConfigError(
      missing.map(
        (s) => `${s.name.toUpperCase()}_DATABASE_URL: required (or DATABASE_URL for every service) (got unset)`,
      ),
    );
  return chosen.map((service) => {
    const prefix = service.name.toUpperCase();
    return {
      service,
      url: (config[`${prefix}_DATABASE_URL`] ?? config.DATABASE_URL)!,
      schema: config[`${prefix}_DATABASE_SCHEMA`] ?? (single ? config.DATABASE_SCHEMA : undefined) ?? service.name,
    };
  });
}

/** Migrates every target in turn; resolves to the migrations applied per service. */
export async function migrate(
  names: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<Record<string, string[]>> {
  const targets = migrationTargets(names, env);
  const logLevel = baseConfigSchema.shape.LOG_LEVEL.parse(env.LOG_LEVEL);
  // The chart's all-in-one Job: DATABASE_URL is an admin URL. A service without its own URL gets its
  // cp_<name> role and schema (as the all-in-one makes them at start) and is migrated as that role,
  // so that its tables are its own, not the admin's.
  const { MIGRATE_PROVISION_ROLES: provision } = parseConfig(
    z.object({ MIGRATE_PROVISION_ROLES: envBoolean(false) }),
    env,
  );
  const applied: Record<string, string[]> = {};
  for (const target of targets) {
    const logger = createLogger('migrate', logLevel).child({ service: target.service.name });
    const ownUrl = env[`${target.service.name.toUpperCase()}_DATABASE_URL`];
    const url = provision && !ownUrl ? await provisionServiceDatabase(target.url, target.service.name) : target.url;
    const pool = createPool({ url, schema: target.schema, max: 1, applicationName: 'migrate' });
    try {
      applied[target.service.name] = await migrateService(target.service, pool, target.schema, logger);
      logger.info({ schema: target.schema, applied: applied[target.service.name] }, 'schema current');
    } finally {
      await pool.end();
    }
  }
  return applied;
}
