// Environment parsing: one zod schema per process, parsed once at start; a bad value stops the
// process with a message naming the variable.
import { readFileSync } from 'node:fs';
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

/** The default largest CASE framework package (a state's framework is several MB of JSON). */
export const STANDARDS_PACKAGE_DEFAULT_BYTES = 20_971_520;

/** The default largest QTI content package (items with their images, which are reported, not kept). */
export const QTI_PACKAGE_DEFAULT_BYTES = 20_971_520;

/** A size in bytes from 1 KB to `max`, `def` when unset. */
export const envBytes = (def: number, max: number) => z.coerce.number().int().min(1024).max(max).default(def);

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

/** An optional text variable; empty counts as unset. */
const optionalText = () => z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

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
  /** TLS to the brokers (verified against the system CAs, or KAFKA_TLS_CA_FILE's). Default: plain. */
  KAFKA_TLS: envBoolean(false),
  /** A PEM bundle of the CAs the brokers' certificates are verified against (e.g. Strimzi's cluster CA). */
  KAFKA_TLS_CA_FILE: optionalText(),
  /** SASL authentication to the brokers; unset: none. Any case (SCRAM-SHA-512 as Kafka writes it). */
  KAFKA_SASL_MECHANISM: z.preprocess(
    (v) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined),
    z
      .enum(['scram-sha-512', 'scram-sha-256', 'plain'], { error: 'must be scram-sha-512, scram-sha-256 or plain' })
      .optional(),
  ),
  KAFKA_SASL_USERNAME: optionalText(),
  KAFKA_SASL_PASSWORD: optionalText(),
  /** A file holding the password instead (a mounted Secret); one trailing newline is ignored. */
  KAFKA_SASL_PASSWORD_FILE: optionalText(),
  /**
   * Allows KAFKA_SASL_MECHANISM=plain without KAFKA_TLS, where the password crosses the network as
   * written: only for a connection encrypted otherwise (a service mesh's mutual TLS).
   */
  KAFKA_SASL_ALLOW_PLAINTEXT: envBoolean(false),
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

/** The Kafka client's connection security, as KafkaBus takes it (`tls`, `sasl`). */
export interface KafkaConnection {
  tls?: true | { ca: string };
  sasl?: { mechanism: 'scram-sha-512' | 'scram-sha-256' | 'plain'; username: string; password: string };
  /** Said once at start: what is allowed but weak (SASL over a plain connection). */
  warnings: string[];
}

type KafkaConnectionConfig = Pick<
  BaseConfig,
  | 'KAFKA_TLS'
  | 'KAFKA_TLS_CA_FILE'
  | 'KAFKA_SASL_MECHANISM'
  | 'KAFKA_SASL_USERNAME'
  | 'KAFKA_SASL_PASSWORD'
  | 'KAFKA_SASL_PASSWORD_FILE'
  | 'KAFKA_SASL_ALLOW_PLAINTEXT'
>;

/**
 * The Kafka variables together, files read (at start, so that a missing mount stops the process
 * rather than every connection failing later): TLS with its CA bundle, SASL with its credentials.
 * A half-given setting is refused with the variable to set. SCRAM without TLS is allowed with a
 * warning (the password never crosses the network, but the events do, readable); PLAIN without
 * TLS sends the password as written and is refused unless KAFKA_SASL_ALLOW_PLAINTEXT.
 */
export function kafkaConnection(
  config: KafkaConnectionConfig,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): KafkaConnection {
  const problems: string[] = [];
  const warnings: string[] = [];
  const read = (name: string, path: string): string | undefined => {
    try {
      return readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(`${name}: cannot read ${path} (${code ?? String(error)})`);
      return undefined;
    }
  };

  let tls: KafkaConnection['tls'];
  if (config.KAFKA_TLS_CA_FILE !== undefined && !config.KAFKA_TLS) {
    problems.push(`KAFKA_TLS_CA_FILE: set, but KAFKA_TLS is not true (set KAFKA_TLS=true to use TLS)`);
  } else if (config.KAFKA_TLS) {
    tls = true;
    if (config.KAFKA_TLS_CA_FILE !== undefined) {
      const ca = read('KAFKA_TLS_CA_FILE', config.KAFKA_TLS_CA_FILE);
      if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----'))
        problems.push(`KAFKA_TLS_CA_FILE: ${config.KAFKA_TLS_CA_FILE} holds no PEM certificate`);
      else if (ca !== undefined) tls = { ca };
    }
  }

  let sasl: KafkaConnection['sasl'];
  const mechanism = config.KAFKA_SASL_MECHANISM;
  if (mechanism === undefined) {
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE'] as const) {
      if (config[name] !== undefined) problems.push(`${name}: set, but KAFKA_SASL_MECHANISM is not`);
    }
  } else {
    let password: string | undefined;
    if (config.KAFKA_SASL_PASSWORD !== undefined && config.KAFKA_SASL_PASSWORD_FILE !== undefined) {
      problems.push('KAFKA_SASL_PASSWORD_FILE: set together with KAFKA_SASL_PASSWORD (set one)');
    } else if (config.KAFKA_SASL_PASSWORD_FILE !== undefined) {
      password = read('KAFKA_SASL_PASSWORD_FILE', config.KAFKA_SASL_PASSWORD_FILE)?.replace(/\r?\n$/, '');
      if (password === '') problems.push(`KAFKA_SASL_PASSWORD_FILE: ${config.KAFKA_SASL_PASSWORD_FILE} is empty`);
    } else if (config.KAFKA_SASL_PASSWORD !== undefined) {
      password = config.KAFKA_SASL_PASSWORD;
    } else {
      problems.push(
        `KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=${mechanism} (or KAFKA_SASL_PASSWORD_FILE)`,
      );
    }
    if (config.KAFKA_SASL_USERNAME === undefined)
      problems.push(`KAFKA_SASL_USERNAME: required with KAFKA_SASL_MECHANISM=${mechanism}`);
    if (!config.KAFKA_TLS) {
      if (mechanism === 'plain' && !config.KAFKA_SASL_ALLOW_PLAINTEXT) {
        problems.push(
          'KAFKA_SASL_MECHANISM: plain sends the password as written: set KAFKA_TLS=true (or KAFKA_SASL_ALLOW_PLAINTEXT=true where the connection is encrypted otherwise)',
        );
      } else {
        warnings.push(
          mechanism === 'plain'
            ? 'Kafka: SASL PLAIN without KAFKA_TLS: the password and the events cross the network unencrypted'
            : `Kafka: SASL ${mechanism} without KAFKA_TLS: the events cross the network unencrypted`,
        );
      }
    }
    if (config.KAFKA_SASL_USERNAME !== undefined && password) {
      sasl = { mechanism, username: config.KAFKA_SASL_USERNAME, password };
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return { ...(tls ? { tls } : {}), ...(sasl ? { sasl } : {}), warnings };
}
