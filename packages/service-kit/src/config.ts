// Environment parsing: one zod schema per process, parsed once at start; a bad value stops the
// process with a message naming the variable.
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      const value = env[String(issue.path[0])];
      const shown = value === undefined ? 'unset' : `"${shownValue(name, value)}"`;
      return `${name}: ${issue.message} (got ${shown})`;
    }),
  );
}

/**
 * A bad value as an error may show it: secrets hidden, a URL's password (DATABASE_URL, SMTP_URL)
 * masked, long values cut.
 */
function shownValue(name: string, value: string): string {
  if (/SECRET|PASSWORD|_KEY/i.test(name)) return '(hidden)';
  let shown = value;
  try {
    const url = new URL(value);
    if (url.password) {
      url.password = '***';
      shown = url.toString();
    }
  } catch {
    // not a URL
  }
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
}

/** Boolean env var: accepts true/false/1/0/yes/no (any case). */
export const envBoolean = (defaultValue: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return defaultValue;
      const s = v.toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

export const envPort = (defaultValue: number) => z.coerce.number().int().min(0).max(65535).default(defaultValue);

/**
 * The secret of service tokens (see caller.ts): shared by the gateway and every service, at least
 * 32 characters, never a default (the all-in-one and the stack generate one per run).
 */
export const serviceTokenSecret = () =>
  z
    .string({ error: 'required: the secret shared by the gateway and the services (at least 32 characters)' })
    .min(32, 'must be at least 32 characters');

/** Variables every service process reads. */
export const baseConfigSchema = z.object({
  PORT: envPort(0),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** A pooled connection idle this long is closed (each one is a Postgres process holding memory). */
  DATABASE_POOL_IDLE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /**
   * Longest one SQL statement may run (Postgres' statement_timeout, lock waits included) before
   * it is cancelled and the request answers 503 `timeout`; below the gateway's UPSTREAM_TIMEOUT_MS.
   * 0: none sent (the role's or a pooler's own applies). Work that may rightly take longer lifts it
   * (LIFT_STATEMENT_TIMEOUT: migrations, privacy exports and erasures, audit, retention).
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /**
   * Days a consumed event's inbox entry (its duplicate guard) is kept; 0: for ever. Entries are
   * kept longer while a subscribed topic may deliver events again for longer (retention.ms plus
   * segment.ms; compacted or unlimited topics: for ever; see `inboxRetention` in service.ts).
   */
  INBOX_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'must be host:port[,host:port…]')
    .optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Apply the schema's migrations when starting; false where a job runs `migrate` once per release. */
  MIGRATE_ON_START: envBoolean(true),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** A class or assessment id created this recently (UUIDv7 time) is waited for when a local copy misses it; 0: never. */
  READ_AFTER_CREATE_WINDOW_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Bound on one such wait (below the gateway's UPSTREAM_TIMEOUT_MS). */
  READ_AFTER_CREATE_WAIT_MS: z.coerce.number().int().min(0).max(25_000).default(5_000),
  /** Such waits at once per process; beyond it a miss answers 404 at once. */
  READ_AFTER_CREATE_MAX_WAITERS: z.coerce.number().int().min(0).max(100_000).default(1_000),
  /** How often a service's privacy retention job runs (once per interval across all replicas). */
  PRIVACY_RETENTION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(30 * 86_400_000)
    .default(86_400_000),
  SERVICE_TOKEN_SECRET: serviceTokenSecret(),
  /** While rotating: the former secret, still accepted (never used to sign). */
  SERVICE_TOKEN_SECRET_PREVIOUS: z.preprocess((v) => (v === '' ? undefined : v), serviceTokenSecret().optional()),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;
